// One measured row of `npm run bench -- scale`: a distributed deployment on this machine — a
// private redis-server, a fresh PostgreSQL schema, the server API-only and N `apps/worker`
// processes with the same pools — running sleep jobs (I/O-bound: every stage waits on a timer).
// Every other setting is the default a user gets (fair share on among them): no overrides here.
import type { TJob } from "@raas/shared";
import { Deployment } from "../../apps/server/test/distributed/support/deployment";
import { WorkerProcesses } from "../../apps/server/test/distributed/support/worker-processes";
import { machineCpuSec, processCpuSec } from "./cpu-meter";

export interface ProcessRunConfig {
  workers: number;
  jobs: number;
  /** Pools of every worker, e.g. `init=2,run=8,eval=16`. */
  pools: string;
  stageMs: { initMs: number; runMs: number; evalMs: number };
  jitter: number;
}

export interface ProcessRunResult {
  workers: number;
  jobs: number;
  completed: number;
  /** Completions per second between the 10th and 90th percentile finish (fill and drain left out). */
  jobsPerSec: number;
  elapsedS: number;
  /** Jobs whose three stages did not all run on one worker (a restart or a handoff miss). */
  attemptsAboveOne: number;
  /** CPU ms per job of the server process and of all worker processes together, during the run. */
  serverCpuMsPerJob: number;
  workerCpuMsPerJob: number;
  /** Share of the machine's CPU (every core, every process — other users' too) busy during the run. */
  machineBusy: number;
}

const SUBMIT_CHUNK = 1_000;
const WAIT_CHUNK = 1_000;

export async function runProcessCluster(config: ProcessRunConfig): Promise<ProcessRunResult> {
  const deployment = await Deployment.start();
  const workers = new WorkerProcesses(deployment);
  try {
    const server = await deployment.startServer({ LOG_LEVEL: "warn" });
    const spawned = await workers.start(config.workers, config.pools, { LOG_LEVEL: "warn" });
    const payload = { ...config.stageMs, jitter: config.jitter };
    const workersCpu = () => spawned.reduce((sum, worker) => sum + processCpuSec(worker.pid), 0);
    const before = {
      server: processCpuSec(server.proc.pid),
      workers: workersCpu(),
      machine: machineCpuSec(),
    };
    const started = Date.now();
    const ids: string[] = [];
    for (let offset = 0; offset < config.jobs; offset += SUBMIT_CHUNK) {
      const count = Math.min(SUBMIT_CHUNK, config.jobs - offset);
      const jobs = Array.from({ length: count }, () => ({ kind: "sleep", payload }));
      const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", {
        jobs,
      });
      ids.push(...results.map((result) => result.job.id));
    }
    const finished: TJob[] = [];
    for (let offset = 0; offset < ids.length; offset += WAIT_CHUNK) {
      const chunk = ids.slice(offset, offset + WAIT_CHUNK);
      for (;;) {
        const { jobs, done } = await server.rest<{ jobs: TJob[]; done: boolean }>("/api/v1/jobs/wait", {
          ids: chunk,
          timeoutMs: 60_000,
        });
        if (done) {
          finished.push(...jobs);
          break;
        }
      }
    }
    const elapsedS = (Date.now() - started) / 1_000;
    const machine = machineCpuSec();
    const perJobMs = (sec: number) => Number(((sec * 1_000) / config.jobs).toFixed(2));
    const completed = finished.filter((job) => job.status === "completed");
    return {
      workers: config.workers,
      jobs: config.jobs,
      completed: completed.length,
      jobsPerSec: steadyRate(completed.map((job) => (job.finishedAtMs ?? 0) - started)),
      elapsedS,
      attemptsAboveOne: finished.filter((job) => job.attempts > 1).length,
      serverCpuMsPerJob: perJobMs(processCpuSec(server.proc.pid) - before.server),
      workerCpuMsPerJob: perJobMs(workersCpu() - before.workers),
      machineBusy: Number(
        ((machine.busy - before.machine.busy) / (machine.total - before.machine.total)).toFixed(3),
      ),
    };
  } finally {
    await workers.stopAll();
    await deployment.dispose();
  }
}

/** Completions per second between the 10th and 90th percentile finish. */
function steadyRate(finishedAtMs: readonly number[]): number {
  const sorted = [...finishedAtMs].sort((a, b) => a - b);
  const lo = Math.floor(sorted.length * 0.1);
  const hi = Math.floor(sorted.length * 0.9) - 1;
  const span = (sorted[hi] ?? 0) - (sorted[lo] ?? 0);
  return span > 0 ? ((hi - lo) * 1_000) / span : Number.NaN;
}
