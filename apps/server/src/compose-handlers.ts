import { existsSync } from "node:fs";
import type { ChatFormat, EngineLogger, InferencePool, SandboxRuntime, TaskHandler } from "@raas/engine";
import {
  createBundleDirRepoSource,
  createHandlers,
  createSweHandlerFactory,
  type HandlersConfig,
  type SweEvalOptions,
} from "@raas/handlers";
import { createQwen3ChatFormat } from "@raas/inference";
import { assertNever } from "@raas/shared";

/** Chat templates the server can pair with a model. */
export type ChatFormatName = "qwen3";

export interface AgentHandlersOptions {
  sandboxRuntime: SandboxRuntime;
  inference: InferencePool;
  /** Template and tool-call format of the policy model. */
  chatFormat: ChatFormatName;
  config?: HandlersConfig;
  /**
   * The `swe` handler: repositories come from `reposDir` (`<owner>__<name>.bundle` files or git
   * mirrors `<owner>__<name>.git` / `<owner>__<name>/`). Default none: no `swe` handler.
   */
  swe?: { reposDir: string } & SweEvalOptions;
  logger: EngineLogger;
}

/**
 * THE place where the task handlers that run real rollouts are registered (the diagnostic
 * `sleep` handler is added by `composeEngine`): `math`, `code`, `stem` from `createHandlers`, and
 * `swe` when a repositories directory is configured. Each gets the sandbox runtime, the routed
 * inference pool and the model's chat format. A new handler family is added here.
 */
export function composeAgentHandlers(options: AgentHandlersOptions): TaskHandler[] {
  const chatFormat = chatFormatFor(options.chatFormat);
  const deps = { sandboxRuntime: options.sandboxRuntime, inference: options.inference, chatFormat };
  const handlers = createHandlers({ ...deps, ...(options.config ? { config: options.config } : {}) });
  if (options.swe) {
    const { reposDir, ...evalOptions } = options.swe;
    if (!existsSync(reposDir)) {
      options.logger.warn(
        { reposDir },
        "the swe repositories directory does not exist; swe jobs will fail as eval until it does",
      );
    }
    const createSwe = createSweHandlerFactory({
      ...evalOptions,
      repoSource: createBundleDirRepoSource({ dir: reposDir }),
    });
    const agentDefaults = options.config?.agent;
    handlers.push(
      createSwe({ ...deps, ...(agentDefaults ? { defaults: agentDefaults } : {}) }) as unknown as TaskHandler,
    );
  }
  options.logger.info(
    { kinds: handlers.map((handler) => handler.kind), chatFormat: options.chatFormat },
    "agent handlers registered",
  );
  return handlers;
}

function chatFormatFor(name: ChatFormatName): ChatFormat {
  switch (name) {
    case "qwen3":
      return createQwen3ChatFormat();
    default:
      return assertNever(name, "chat format");
  }
}
