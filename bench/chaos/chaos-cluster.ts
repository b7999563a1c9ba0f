// The deployment the chaos bench breaks: a PostgreSQL and a redis-server of its own (both
// restartable), the simulator as the inference backend (in this process, so it can go down and
// come back on the same port), one tmpfs sandbox disk per worker slot, and a supervisor running
// the API-only server on a fixed port and one worker per slot.
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { Deployment } from "../../apps/server/test/distributed/support/deployment";
import { freePort } from "../../packages/shared/test/support/local-process";
import { ApiClient } from "./api-client";
import { SandboxDisks } from "./sandbox-disks";
import { StoreView } from "./store-view";
import { isWorkerAlive, Supervisor } from "./supervisor";
import { scriptedPolicy } from "./workload";

export interface ChaosClusterOptions {
  workers: number;
  /** Pools of every worker, e.g. `init=4,run=8,eval=4`. */
  pools: string;
  /** Size of each worker slot's tmpfs sandbox disk, MiB. */
  diskMiB: number;
  /** Fixed per-request overhead of the simulator, ms (makes RUN take a while). */
  inferenceOverheadMs: number;
  /** How long a SIGTERMed worker gives its jobs before it stops them (RAAS_WORKER_STOP_GRACE_MS). */
  stopGraceMs: number;
  seed: number;
}

export class ChaosCluster {
  private constructor(
    readonly deployment: Deployment,
    readonly simulator: RunningSimulator,
    readonly disks: SandboxDisks,
    readonly supervisor: Supervisor,
    readonly store: StoreView,
    readonly api: ApiClient,
  ) {}

  static async start(options: ChaosClusterOptions): Promise<ChaosCluster> {
    const disks = SandboxDisks.mount(options.workers, options.diskMiB);
    const simulator = await startSimulator({
      policy: scriptedPolicy() as TPolicyConfigInput,
      seed: options.seed,
      latency: { overheadMs: options.inferenceOverheadMs },
    }).catch((error: unknown) => {
      disks.unmount();
      throw error;
    });
    let deployment: Deployment | null = null;
    try {
      deployment = await Deployment.start({ privatePostgres: true });
      const supervisor = new Supervisor({
        deployment,
        disks,
        serverPort: await freePort(),
        serverEnv: {},
        workerEnv: {
          RAAS_WORKER_POOLS: options.pools,
          RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B`,
          RAAS_WORKER_STOP_GRACE_MS: String(options.stopGraceMs),
        },
      });
      await supervisor.start(options.workers);
      const store = new StoreView(deployment.schema.databaseUrl, deployment.schema.schema);
      const api = new ApiClient(() => supervisor.serverUrl);
      return new ChaosCluster(deployment, simulator, disks, supervisor, store, api);
    } catch (error) {
      await deployment?.dispose().catch(() => {});
      await simulator.close();
      disks.unmount();
      throw error;
    }
  }

  isHostAlive(hostId: string): boolean {
    return isWorkerAlive(hostId, this.supervisor.lives);
  }

  /** Waits until the server answers (the supervisor may be restarting it). */
  async serverReady(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.api.get("/health");
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  async dispose(): Promise<void> {
    await this.supervisor.stop();
    await this.store.close().catch(() => {});
    await this.deployment.dispose().catch(() => {});
    await this.simulator.close().catch(() => {});
    this.disks.unmount();
  }
}
