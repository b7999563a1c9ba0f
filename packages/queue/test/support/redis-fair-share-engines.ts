import { createSleepHandler, HandlerRegistry, MemoryJobStore, RolloutEngine } from "@raas/engine";
import { RedisEventBus, RedisJobQueue } from "../../src/index";
import { deleteKeys } from "./redis-test-env";

/** One stage event of the sleep handler, as a worker runs it. */
export interface SleepStageEvent {
  jobId: string;
  stage: "init" | "run" | "eval";
  phase: "start" | "cleanup";
}

export interface FairShareEngines {
  /** The control plane: no pools, admits jobs fairly to the Redis INIT queue. */
  server: RolloutEngine;
  /** Stops both engines, closes their queues and buses, and deletes every key under the prefix. */
  stop: () => Promise<void>;
}

/**
 * Distributed mode in one process, on the Redis at `url` under `prefix`: a control-plane engine
 * with no pools admits jobs fairly to the Redis INIT queue and follows them through the Redis
 * event bus; a worker engine on the same Redis (INIT 2, RUN 3, EVAL 2) runs every stage with the
 * sleep handler, reporting each stage to `onStage`. Used by the queue's fair-share test and by
 * `npm run bench -- fair-share`.
 */
export async function startFairShareEngines(options: {
  url: string;
  prefix: string;
  onStage: (event: SleepStageEvent) => void;
}): Promise<FairShareEngines> {
  const { url, prefix } = options;
  const store = new MemoryJobStore();
  const handlers = () => new HandlerRegistry().register(createSleepHandler({ onStage: options.onStage }));
  const onError = () => {};
  const parts = (workerId: string) => ({
    queue: new RedisJobQueue({ url, prefix, maxBlockMs: 200, onError }),
    bus: new RedisEventBus({ url, prefix, onError }),
    workerId,
  });
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 60_000 });
  const control = parts("control");
  const server = new RolloutEngine({
    store,
    handlers: handlers(),
    ...control,
    recoverAtStart: "unheld",
    pools: { init: pool(0), run: pool(0), eval: pool(0) },
    // The workers' slots, which the control plane cannot see: INIT 2 + RUN 3.
    fairShare: { queuedAhead: 5, sweepEveryMs: 100 },
  });
  const work = parts("worker-1");
  const worker = new RolloutEngine({
    store,
    handlers: handlers(),
    ...work,
    recoverAtStart: "unheld",
    pools: { init: pool(2), run: pool(3), eval: pool(2) },
  });
  const stop = async () => {
    for (const [engine, { queue, bus }] of [
      [worker, work],
      [server, control],
    ] as const) {
      await engine.stop({ graceMs: 100 });
      await queue.close();
      await bus.close();
    }
    await deleteKeys(url, prefix);
    await store.close();
  };
  await server.start();
  await worker.start();
  return { server, stop };
}

/** `count` sleep jobs of one run sharing the slots with `weight`, each RUN taking `runMs`. */
export function sleepJobsOfRun(runId: string, weight: number, runMs: number, count: number) {
  return Array.from({ length: count }, () => ({
    kind: "sleep",
    payload: { initMs: 5, runMs, evalMs: 5 },
    batchId: runId,
    metadata: { runId, share: { weight, maxSandboxes: null } },
  }));
}
