import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AnyTaskHandler,
  defineHandler,
  type EngineLogger,
  type InferencePool,
  type SandboxRuntime,
} from "@raas/engine";
import {
  createBundleDirRepoSource,
  createHandlers,
  createHarnessHandler,
  createHarnessInstallCache,
  createSweHandlerFactory,
  type HandlersConfig,
  type HarnessGateway,
  type SweEvalOptions,
} from "@raas/handlers";
import { createModelChatFormat, type ModelFamilyAdapter } from "@raas/inference";
import { createMcpToolProvider } from "@raas/mcp";
import { composeJudge, type JudgeConfig } from "./compose-judge";

export interface AgentHandlersOptions {
  sandboxRuntime: SandboxRuntime;
  inference: InferencePool;
  /** The policy model's family (`loadModelFamily`): template, tokenizer, tool-call format. */
  family: ModelFamilyAdapter;
  config?: HandlersConfig;
  /**
   * The `swe` handler: repositories come from `reposDir` (`<owner>__<name>.bundle` files or git
   * mirrors `<owner>__<name>.git` / `<owner>__<name>/`). Default none: no `swe` handler.
   */
  swe?: {
    reposDir: string;
    /**
     * Where repositories unpacked from bundles are kept while the server runs (their entries are
     * removed on close). Default a new directory under the OS temp dir, removed on close.
     */
    scratchDir?: string;
  } & SweEvalOptions;
  /**
   * The job's inference gateway as harnesses reach it; registers the `harness` handler (bring
   * your own agent over the OpenAI API) for every agent kind registered here and in
   * `harnessTargets`. Default none: no `harness` handler.
   */
  harnessGateway?: HarnessGateway;
  /**
   * Where harness recipes are installed from npm (once per host) and mounted read-only into
   * sandboxes, which may run as another uid: it must be searchable by others (hence not under the
   * private data directory). Default `<os.tmpdir()>/raas-harnesses`.
   */
  harnessCacheDir?: string;
  /**
   * Handlers registered besides these (the server's own, e.g. a user-defined agent handler) whose
   * agent a harness may play too (those with `runWithAgent`). Default none.
   */
  harnessTargets?: readonly AnyTaskHandler[];
  /**
   * The judge model's backends (`RAAS_JUDGE_BACKENDS`) for `judge` jobs: a pool of their own, apart
   * from `inference`. Default none: `judge` jobs fail as `eval`, saying so.
   */
  judge?: JudgeConfig;
  logger: EngineLogger;
}

export interface ComposedAgentHandlers {
  handlers: AnyTaskHandler[];
  /** Releases what the handlers hold on the host (the swe repositories' scratch directory). Idempotent. */
  close(): Promise<void>;
}

/**
 * THE place where the task handlers that run real rollouts are registered (the diagnostic
 * `sleep` handler is added by `composeEngine`): `math`, `code`, `stem` from `createHandlers`, and
 * `swe` when a repositories directory is configured, and `harness` (any of them played by a harness
 * of the caller's own) when a harness gateway is. Each gets the sandbox runtime, the routed
 * inference pool, the model's chat format and the MCP tool-server provider. A new handler family
 * is added here.
 */
export function composeAgentHandlers(options: AgentHandlersOptions): ComposedAgentHandlers {
  const chatFormat = createModelChatFormat(options.family);
  const deps = {
    sandboxRuntime: options.sandboxRuntime,
    inference: options.inference,
    chatFormat,
    // Tool servers environments declare (`mcp` in an agent job's payload) speak MCP.
    toolServers: createMcpToolProvider(),
  };
  const judge = composeJudge(options.judge, options.logger);
  const handlers = createHandlers({
    ...deps,
    ...(options.config ? { config: options.config } : {}),
    ...(judge ? { judge } : {}),
  });
  const closers: Array<() => Promise<void>> = judge ? [() => judge.close()] : [];
  if (options.swe) {
    const { reposDir, scratchDir, ...evalOptions } = options.swe;
    if (!existsSync(reposDir)) {
      options.logger.warn(
        { reposDir },
        "the swe repositories directory does not exist; swe jobs will fail as eval until it does",
      );
    }
    const repoSource = createBundleDirRepoSource({
      dir: reposDir,
      ...(scratchDir !== undefined && { workDir: scratchDir }),
    });
    closers.push(() => repoSource.close());
    const createSwe = createSweHandlerFactory({ ...evalOptions, repoSource });
    const agentDefaults = options.config?.agent;
    handlers.push(
      defineHandler(createSwe({ ...deps, ...(agentDefaults ? { defaults: agentDefaults } : {}) })),
    );
  }
  if (options.harnessGateway) {
    const defaults = options.config?.agent;
    const harness = createHarnessHandler({
      gateway: options.harnessGateway,
      targets: [...handlers, ...(options.harnessTargets ?? [])],
      ...(defaults ? { defaults } : {}),
      recipes: {
        installCache: createHarnessInstallCache({
          cacheDir: options.harnessCacheDir ?? join(tmpdir(), "raas-harnesses"),
        }),
        // The node this server runs on runs the recipes that need one (mounted read-only).
        nodePath: process.execPath,
      },
    });
    handlers.push(defineHandler(harness));
  }
  options.logger.info(
    {
      kinds: handlers.map((handler) => handler.kind),
      modelFamily: options.family.family,
      judgeBackends: judge?.listBackends().map((backend) => backend.id) ?? [],
      ...(options.swe && {
        sweRepoSpecs: Object.keys(options.swe.repoSpecs ?? {}).length,
        sweImagePattern: options.swe.imagePattern ?? null,
      }),
    },
    "agent handlers registered",
  );
  let closing: Promise<void> | null = null;
  return {
    handlers,
    close() {
      closing ??= Promise.all(closers.splice(0).map((close) => close())).then(() => undefined);
      return closing;
    },
  };
}
