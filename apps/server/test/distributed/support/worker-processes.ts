import { type SpawnedWorker, spawnWorker } from "../../../../worker/test/support/spawn-worker";
import type { Deployment } from "./deployment";

export type { SpawnedWorker };

/**
 * Worker processes of a deployment (`apps/worker` through its test helper): each shares the
 * deployment's store, queue and prefix, with its own pools; all are stopped by `stopAll`.
 */
export class WorkerProcesses {
  readonly started: SpawnedWorker[] = [];

  constructor(private readonly deployment: Deployment) {}

  /** Starts `count` workers at once, each with `pools` (`init=2,run=2,eval=2`). */
  async start(count: number, pools: string, env: Record<string, string> = {}): Promise<SpawnedWorker[]> {
    const spawned = await Promise.all(
      Array.from({ length: count }, () =>
        spawnWorker(
          { ...this.deployment.sharedEnv(), RAAS_WORKER_POOLS: pools, LOG_LEVEL: "info", ...env },
          { timeoutMs: 120_000 },
        ),
      ),
    );
    this.started.push(...spawned);
    return spawned;
  }

  byId(id: string): SpawnedWorker | undefined {
    return this.started.find((worker) => worker.id === id);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.map((worker) => worker.kill()));
  }
}
