// One strategy's world: a fresh simulator process (the labelled GPU test double) with the task pool's
// policy, the routed inference pool over HTTP, and an in-process RolloutEngine on memory adapters
// running the bench handler. Every terminal job is remembered for the bookkeeping afterwards.
import {
  type GenerateResult,
  HandlerRegistry,
  type InferencePool,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  StickyRouter,
} from "@raas/engine";
import { createQwen3ChatFormat, RoutedInferencePool, type RoutedInferencePoolOptions } from "@raas/inference";
import { isTerminalStatus, type TJob } from "@raas/shared";
import type { LatencyModelOptions } from "@raas/simulator";
import { createDapoSimHandler } from "./dapo-sim-handler";
import { type DapoTask, dapoPolicyConfig } from "./dapo-workload";
import { type SimulatorProcess, startSimulatorProcess } from "./simulator-process";

export interface DapoRigOptions {
  tasks: readonly DapoTask[];
  /** Trajectories running at once (the engine's RUN pool); INIT and EVAL get the same. */
  concurrency: number;
  latency: LatencyModelOptions;
  toolLatencyMs: number;
  simulatorSeed: number;
  /** Extra pool options (the weight-sync run wraps backends to count what they hand over). */
  pool?: Partial<RoutedInferencePoolOptions>;
  /** Sees every generation the handler gets back from the pool. */
  onGenerated?: (result: GenerateResult) => void;
}

export interface DapoRig {
  engine: RolloutEngine;
  pool: RoutedInferencePool;
  simulator: SimulatorProcess;
  /** Terminal jobs seen so far, by id (the last event of each). */
  endedJobs: Map<string, TJob>;
  /** Calls `listener` with every job that reaches a terminal status (once per job). */
  onJobEnded(listener: (job: TJob) => void): () => void;
  /** Resolves when every one of `jobIds` has ended. */
  waitForJobs(jobIds: readonly string[]): Promise<void>;
  /** Generated tokens of a job's stored turns. */
  storedTokens(jobId: string): Promise<number>;
  close(): Promise<void>;
}

export async function startDapoRig(options: DapoRigOptions): Promise<DapoRig> {
  const simulator = await startSimulatorProcess({
    policy: dapoPolicyConfig(options.tasks),
    seed: options.simulatorSeed,
    latency: options.latency,
    // More batch slots than trajectories: the engine's concurrency is the capacity compared.
    maxConcurrency: options.concurrency * 2,
  });
  const pool = new RoutedInferencePool({ ...options.pool, router: new StickyRouter() });
  const observe = options.onGenerated;
  const inference: InferencePool = observe
    ? {
        generate: async (request) => {
          const result = await pool.generate(request);
          observe(result);
          return result;
        },
        releaseJob: (jobId) => pool.releaseJob(jobId),
      }
    : pool;
  pool.registerBackend({
    id: "sim-0",
    kind: "vllm",
    baseUrl: simulator.url,
    modelName: simulator.modelName,
    maxConcurrency: options.concurrency * 2,
  });
  const handlers = new HandlerRegistry().register(
    createDapoSimHandler({
      inference,
      chatFormat: createQwen3ChatFormat(),
      toolLatencyMs: options.toolLatencyMs,
    }),
  );
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const stage = { concurrency: options.concurrency, timeoutMs: 600_000 };
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    inference: pool,
    pools: { init: stage, run: stage, eval: stage },
  });
  const endedJobs = new Map<string, TJob>();
  const listeners = new Set<(job: TJob) => void>();
  const unsubscribe = engine.subscribe(({ job }) => {
    if (!isTerminalStatus(job.status) || endedJobs.has(job.id)) return;
    endedJobs.set(job.id, job);
    for (const listener of [...listeners]) listener(job);
  });
  const onJobEnded = (listener: (job: TJob) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  await engine.start();
  return {
    engine,
    pool,
    simulator,
    endedJobs,
    onJobEnded,
    waitForJobs(jobIds) {
      const open = new Set(jobIds.filter((id) => !endedJobs.has(id)));
      if (open.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const stop = onJobEnded((job) => {
          open.delete(job.id);
          if (open.size > 0) return;
          stop();
          resolve();
        });
      });
    },
    async storedTokens(jobId) {
      const { turns } = await engine.getTrajectory(jobId);
      return turns.reduce((sum, turn) => sum + turn.responseIds.length, 0);
    },
    async close() {
      unsubscribe();
      await engine.stop({ graceMs: 100 });
      await queue.close();
      await store.close();
      await pool.close();
      await simulator.close();
    },
  };
}
