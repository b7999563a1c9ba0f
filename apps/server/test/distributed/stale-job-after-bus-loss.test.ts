import type { TJob } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { Deployment, type ServerHandle, submitSleepJobs, until } from "./support/deployment";
import { type SpawnedWorker, WorkerProcesses } from "./support/worker-processes";

let deployment: Deployment | null = null;
let workers: WorkerProcesses | null = null;
afterEach(async () => {
  const server = deployment?.processes[0];
  if (server?.isRunning) process.kill(server.pid, "SIGCONT");
  await workers?.stopAll();
  await deployment?.dispose();
  deployment = null;
  workers = null;
});

function getJob(server: ServerHandle, id: string): Promise<TJob> {
  return server.rest<TJob>(`/api/v1/jobs/${id}`);
}

async function listedJob(server: ServerHandle, id: string): Promise<TJob | undefined> {
  const page = await server.rest<{ items: TJob[] }>("/api/v1/jobs?limit=50");
  return page.items.find((job) => job.id === id);
}

/** Waits until the worker's bus publisher is connected again (its offline messages are sent). */
async function publisherRestored(worker: SpawnedWorker, linesBefore: number): Promise<void> {
  await until(
    () => (worker.output().match(/redis publisher: connection restored/g)?.length ?? 0) > linesBefore,
    "the worker's bus publisher back",
    60_000,
  );
}

// An API-only server learns of other processes' job changes through the bus, which delivers at most
// once. A job that finishes while the server's bus subscription is gone (a Redis restart) is never
// announced to it again: what the API answers must still be the stored state, not the last event.
describe("the API after job events were lost with a Redis restart", () => {
  it("reports the stored terminal state from GET /jobs/{id}, the list and wait", async () => {
    deployment = await Deployment.start();
    const server = await deployment.startServer();
    workers = new WorkerProcesses(deployment);
    const [worker] = (await workers.start(1, "init=2,run=2,eval=2")) as [SpawnedWorker];
    const [id] = (await submitSleepJobs(server, 1, { initMs: 50, runMs: 50, evalMs: 3_000 })) as [string];
    await until(async () => {
      const job = await getJob(server, id);
      return job.status === "active" && job.stage === "eval";
    }, "the server to see the job running its EVAL");

    // Freeze the server so its bus subscription cannot come back before the job's end is published:
    // the terminal event of this job is then lost for it, deterministically.
    const restoredBefore = worker.output().match(/redis publisher: connection restored/g)?.length ?? 0;
    process.kill(server.proc.pid, "SIGSTOP");
    await deployment.redis.restart();
    await until(
      async () => (await deployment!.storedJobs([id]))[0]?.status === "completed",
      "the job stored as completed",
      60_000,
    );
    await publisherRestored(worker, restoredBefore);
    // The publish follows the commit within a tick; leave it time to reach the (subscriber-less) bus.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    process.kill(server.proc.pid, "SIGCONT");

    // The bound only stops a broken run from hanging; a correct server answers at once.
    await until(
      async () => (await getJob(server, id)).status === "completed",
      "GET to report completed",
      15_000,
    );
    await until(
      async () => (await listedJob(server, id))?.status === "completed",
      "the list to report it",
      15_000,
    );
    const waited = await server.rest<{ jobs: TJob[]; done: boolean }>("/api/v1/jobs/wait", {
      ids: [id],
      timeoutMs: 10_000,
    });
    expect(waited.done).toBe(true);
    expect(waited.jobs[0]?.status).toBe("completed");
    const stored = (await deployment.storedJobs([id]))[0] as TJob;
    expect(await getJob(server, id)).toEqual(stored);
  }, 240_000);
});
