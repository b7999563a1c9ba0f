import type { RunningSimulator } from "@raas/simulator";
import { afterAll, beforeAll } from "vitest";
import { Deployment, type ServerHandle } from "./deployment";
import { startMathSimulator } from "./math-tasks";
import { WorkerProcesses } from "./worker-processes";

export interface ClusterOptions {
  /** A math simulator in this process (`startMathSimulator`); none unless given. */
  simulator?: { seed: number; overheadMs?: number };
  /** A PostgreSQL server of the deployment's own, to stop and restart. Default false. */
  privatePostgres?: boolean;
  /** Start the API-only server before the tests (default true); false: the tests start their own. */
  startServer?: boolean;
  /** Bound on the start-up, ms (default 180_000: a loaded machine's process starts). */
  startTimeoutMs?: number;
}

/** The deployment of a test file and what runs in it; each part throws if read before it started. */
export interface Cluster {
  readonly deployment: Deployment;
  readonly server: ServerHandle;
  readonly workers: WorkerProcesses;
  readonly simulator: RunningSimulator;
}

/**
 * Registers a `beforeAll` that starts a distributed deployment (private Redis, fresh schema or
 * private PostgreSQL), the simulator and the API-only server as asked, with no workers yet, and an
 * `afterAll` that stops the workers, the deployment and the simulator. Call it in a `describe`.
 */
export function useCluster(options: ClusterOptions = {}): Cluster {
  let deployment: Deployment | null = null;
  let server: ServerHandle | null = null;
  let workers: WorkerProcesses | null = null;
  let simulator: RunningSimulator | null = null;
  beforeAll(async () => {
    if (options.simulator) simulator = await startMathSimulator(options.simulator);
    deployment = await Deployment.start({ privatePostgres: options.privatePostgres ?? false });
    workers = new WorkerProcesses(deployment);
    if (options.startServer ?? true) server = await deployment.startServer();
  }, options.startTimeoutMs ?? 180_000);
  afterAll(async () => {
    await workers?.stopAll();
    await deployment?.dispose();
    await simulator?.close();
  });
  const started = <T>(part: T | null, name: string): T => {
    if (part === null) throw new Error(`the cluster's ${name} is not started (see useCluster's options)`);
    return part;
  };
  return {
    get deployment() {
      return started(deployment, "deployment");
    },
    get server() {
      return started(server, "server");
    },
    get workers() {
      return started(workers, "workers");
    },
    get simulator() {
      return started(simulator, "simulator");
    },
  };
}
