// An embedded RaaS for handler end-to-end tests: RolloutEngine on memory adapters, real
// bubblewrap sandboxes, the routed inference pool against an in-process simulator serving a model
// family (Qwen3 by default) that the handlers' chat format also speaks, and the built-in handlers
// from @raas/handlers (plus `swe` when configured).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  defineHandler,
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  type Sandbox,
  type SandboxRuntime,
  type StageFinishedEvent,
  StickyRouter,
} from "@raas/engine";
import {
  createHandlers,
  createSweHandlerFactory,
  type HandlersConfig,
  type JudgeModel,
  type SweHandlerConfig,
} from "@raas/handlers";
import {
  createModelChatFormat,
  createQwen3ModelFamily,
  type ModelFamilyAdapter,
  RoutedInferencePool,
} from "@raas/inference";
import { createMcpToolProvider } from "@raas/mcp";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import type { TPolicyConfigInput } from "../../src/index";
import { type RunningSimulator, startSimulator } from "../../src/index";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const DATA_DIR = fileURLToPath(new URL("../../../../packages/handlers/data/", import.meta.url));

/** Reads a JSONL data file of @raas/handlers (`math.jsonl`, …). */
export function readTasks<T = Record<string, unknown>>(file: string): T[] {
  return readFileSync(join(DATA_DIR, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

export function readDataJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(DATA_DIR, file), "utf8")) as T;
}

export interface RolloutFixture {
  engine: RolloutEngine;
  simulator: RunningSimulator;
  /** Every sandbox the runtime created, in order. */
  sandboxes: Sandbox[];
  stageEvents: StageFinishedEvent[];
  /** The runtime the handlers start sandboxes through (its events carry each sandbox's job). */
  runtime: SandboxRuntime;
  /** The sandboxes' base directory (each sandbox's directory is `sbx-…` in it). */
  baseDir: string;
  close(): Promise<void>;
}

/** Starts the whole stack; `close` stops it and removes the sandboxes' base directory. */
export async function startRolloutFixture(options: {
  policy: TPolicyConfigInput;
  config?: HandlersConfig;
  /** Also registers the `swe` handler with this configuration. */
  swe?: SweHandlerConfig;
  concurrency?: number;
  /** Starts per job (the engine's `maxAttempts`); default the engine's. */
  maxAttempts?: number;
  /** The sandboxes' base directory (left in place at close); default a fresh one under tmpdir(), removed at close. */
  baseDir?: string;
  /** Wraps each sandbox before a handler gets it (a test's instrumentation); default none. */
  wrapSandbox?: (sandbox: Sandbox) => Sandbox;
  /** The bubblewrap runtime's tool jail; default `auto` (on where it can start). */
  toolJail?: "auto" | "off";
  /** The judge of `judge` jobs (its own backends, never `simulator`); default none. */
  judge?: JudgeModel;
  /** The model family the simulator serves and the handlers render with; default Qwen3. */
  family?: ModelFamilyAdapter;
}): Promise<RolloutFixture> {
  const family = options.family ?? createQwen3ModelFamily();
  const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
  if (!bwrapPath) throw new Error("this test needs `bwrap`: run `apt-get install -y bubblewrap`");
  const baseDir = options.baseDir ?? mkdtempSync(join(tmpdir(), "raas-handlers-e2e-"));
  const bubblewrap = new BubblewrapRuntime({
    bwrapPath,
    baseDir,
    warn: () => {},
    ...(options.toolJail ? { toolJail: options.toolJail } : {}),
  });
  const sandboxes: Sandbox[] = [];
  const runtime: SandboxRuntime = {
    name: bubblewrap.name,
    toolSpecs: bubblewrap.toolSpecs,
    onEvent: (listener) => bubblewrap.onEvent(listener),
    closeAll: () => bubblewrap.closeAll(),
    async create(spec, signal) {
      const sandbox = await bubblewrap.create(spec, signal);
      sandboxes.push(sandbox);
      return options.wrapSandbox ? options.wrapSandbox(sandbox) : sandbox;
    },
  };
  const simulator = await startSimulator({
    policy: options.policy,
    family,
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
  });
  const inference = new RoutedInferencePool({ router: new StickyRouter() });
  inference.registerBackend({
    id: "sim-0",
    kind: "vllm",
    baseUrl: simulator.url,
    modelName: simulator.modelName,
    weightVersion: "w-1",
  });
  const registry = new HandlerRegistry();
  const chatFormat = createModelChatFormat(family);
  const handlers = createHandlers({
    sandboxRuntime: runtime,
    inference,
    chatFormat,
    toolServers: createMcpToolProvider(),
    ...(options.config ? { config: options.config } : {}),
    ...(options.judge ? { judge: options.judge } : {}),
  });
  if (options.swe) {
    const defaults = options.config?.agent;
    handlers.push(
      defineHandler(
        createSweHandlerFactory(options.swe)({
          sandboxRuntime: runtime,
          inference,
          chatFormat,
          ...(defaults ? { defaults } : {}),
        }),
      ),
    );
  }
  for (const handler of handlers) registry.register(handler);
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const concurrency = options.concurrency ?? 4;
  const engine = new RolloutEngine({
    store,
    queue,
    handlers: registry,
    inference,
    ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
    pools: {
      init: { concurrency, timeoutMs: 120_000 },
      run: { concurrency, timeoutMs: 300_000 },
      eval: { concurrency, timeoutMs: 120_000 },
    },
  });
  const stageEvents: StageFinishedEvent[] = [];
  engine.onStageFinished((event) => stageEvents.push(event));
  await engine.start();
  return {
    engine,
    simulator,
    sandboxes,
    stageEvents,
    runtime,
    baseDir,
    async close() {
      await engine.stop({ graceMs: 1_000 });
      await queue.close();
      await store.close();
      await inference.close();
      await simulator.close();
      await bubblewrap.closeAll();
      if (options.baseDir === undefined) rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
