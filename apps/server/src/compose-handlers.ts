import type { ChatFormat, EngineLogger, InferencePool, SandboxRuntime, TaskHandler } from "@raas/engine";
import { createHandlers, type HandlersConfig } from "@raas/handlers";
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
  logger: EngineLogger;
}

/**
 * THE place where the task handlers that run real rollouts are registered (the diagnostic
 * `sleep` handler is added by `composeEngine`). Each handler from `@raas/handlers` gets the
 * sandbox runtime, the routed inference pool and the model's chat format. A new handler family
 * (e.g. `swe`) is added here once `@raas/handlers` exports it.
 */
export function composeAgentHandlers(options: AgentHandlersOptions): TaskHandler[] {
  const chatFormat = chatFormatFor(options.chatFormat);
  const handlers = createHandlers({
    sandboxRuntime: options.sandboxRuntime,
    inference: options.inference,
    chatFormat,
    ...(options.config ? { config: options.config } : {}),
  });
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
