// An embedded RaaS for the swe handler's end-to-end test: RolloutEngine on memory adapters, real
// bubblewrap sandboxes, the routed inference pool against an in-process simulator (the labelled
// test double for a model) with scripted tool calls, and the real Qwen3 chat format.
import {
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  type Sandbox,
  type SandboxRuntime,
  StickyRouter,
} from "@raas/engine";
import { createQwen3ChatFormat, RoutedInferencePool } from "@raas/inference";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { createSweHandlerFactory, type SweHandlerConfig } from "../../../src/swe/swe-handler";
import { createSweTestRuntime } from "./swe-test-fixture";

export interface SweRolloutFixture {
  engine: RolloutEngine;
  simulator: RunningSimulator;
  /** Every sandbox the runtime created, in order. */
  sandboxes: Sandbox[];
  close(): Promise<void>;
}

export async function startSweRolloutFixture(options: {
  policy: TPolicyConfigInput;
  config: SweHandlerConfig;
}): Promise<SweRolloutFixture> {
  const { runtime: bubblewrap, dispose } = createSweTestRuntime();
  const sandboxes: Sandbox[] = [];
  const runtime: SandboxRuntime = {
    name: bubblewrap.name,
    toolSpecs: bubblewrap.toolSpecs,
    onEvent: (listener) => bubblewrap.onEvent(listener),
    closeAll: () => bubblewrap.closeAll(),
    async create(spec, signal) {
      const sandbox = await bubblewrap.create(spec, signal);
      sandboxes.push(sandbox);
      return sandbox;
    },
  };
  const simulator = await startSimulator({
    policy: options.policy,
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
  registry.register(
    createSweHandlerFactory(options.config)({
      sandboxRuntime: runtime,
      inference,
      chatFormat: createQwen3ChatFormat(),
      defaults: { sampling: { temperature: 1, seed: 7 } },
    }),
  );
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const engine = new RolloutEngine({
    store,
    queue,
    handlers: registry,
    pools: {
      init: { concurrency: 3, timeoutMs: 120_000 },
      run: { concurrency: 3, timeoutMs: 300_000 },
      eval: { concurrency: 3, timeoutMs: 120_000 },
    },
  });
  await engine.start();
  return {
    engine,
    simulator,
    sandboxes,
    async close() {
      await engine.stop({ graceMs: 1_000 });
      await queue.close();
      await store.close();
      await inference.close();
      await simulator.close();
      await dispose();
    },
  };
}
