import { RedisJobQueue } from "@raas/queue";
import { isTerminalStatus } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { Deployment, submitSleepJobs, until } from "./support/deployment";
import type { JobLedger } from "./support/job-ledger";
import { WorkerProcesses } from "./support/worker-processes";

/** Most INIT stages running at once on each worker, from the activation events on the bus. */
function mostConcurrentInitsByWorker(ledger: JobLedger, ids: readonly string[]): Map<string, number> {
  const points = new Map<string, Array<{ atMs: number; delta: number }>>();
  for (const id of ids) {
    const history = ledger.history(id);
    const index = history.findIndex((event) => event.job.status === "active" && event.job.stage === "init");
    const start = history[index];
    if (!start) continue;
    // INIT ends with the job's next transition (queued for RUN, or a failure).
    const endMs = history[index + 1]?.job.updatedAtMs ?? start.job.finishedAtMs;
    if (endMs === null) continue;
    const worker = points.get(start.origin) ?? [];
    worker.push({ atMs: start.job.updatedAtMs, delta: 1 }, { atMs: endMs, delta: -1 });
    points.set(start.origin, worker);
  }
  const most = new Map<string, number>();
  for (const [workerId, list] of points) {
    list.sort((a, b) => a.atMs - b.atMs || a.delta - b.delta);
    let running = 0;
    let peak = 0;
    for (const point of list) {
      running += point.delta;
      peak = Math.max(peak, running);
    }
    most.set(workerId, peak);
  }
  return most;
}

/** Waits until every job is in a final state; returns the most INIT items seen waiting meanwhile. */
async function mostInitWaitingUntilFinal(
  deployment: Deployment,
  queue: RedisJobQueue,
  ids: readonly string[],
): Promise<number> {
  let mostWaiting = 0;
  await until(
    async () => {
      mostWaiting = Math.max(mostWaiting, await queue.depth("init"));
      return (await deployment.storedJobs(ids)).every((job) => isTerminalStatus(job.status));
    },
    "every job in a final state",
    240_000,
  );
  return mostWaiting;
}

// The server API-only (RAAS_SERVER_POOLS=none) with every other setting at its default — fair
// share on — and worker processes doing all the work. The admission window (jobs released ahead of
// the RUN slots) follows the workers' INIT + RUN slots from their heartbeats, not the server's own
// pools (none): each worker runs as many INITs at once as it has slots for, and a restarted server
// takes the jobs it held back through admission again rather than releasing them all at once.
describe("fair-share admission with API-only servers and worker processes", () => {
  let deployment: Deployment | undefined;
  let workers: WorkerProcesses | undefined;
  let probe: RedisJobQueue | undefined;
  afterEach(async () => {
    await probe?.close();
    await workers?.stopAll();
    await deployment?.dispose();
    probe = undefined;
    workers = undefined;
    deployment = undefined;
  });

  it("runs several INITs at once on each worker (init=4) with the default fair share", async () => {
    deployment = await Deployment.start();
    workers = new WorkerProcesses(deployment);
    const server = await deployment.startServer();
    const started = await workers.start(2, "init=4,run=4,eval=4");
    const ids = await submitSleepJobs(server, 32, { initMs: 1_500, runMs: 200, evalMs: 100 });
    const { ledger } = deployment;
    await until(
      () => ids.every((id) => ledger.terminalEvents(id).length > 0),
      "every job's terminal event",
      240_000,
    );
    expect((await deployment.storedJobs(ids)).map((job) => job.status)).toEqual(ids.map(() => "completed"));
    const most = mostConcurrentInitsByWorker(ledger, ids);
    // With a window of one (the server's own pools, none) each worker ran one INIT at a time.
    for (const worker of started) expect(most.get(worker.id) ?? 0, worker.id).toBeGreaterThan(1);
  }, 300_000);

  it("after a server restart, releases the jobs it held within the window, not all at once", async () => {
    deployment = await Deployment.start();
    workers = new WorkerProcesses(deployment);
    const first = await deployment.startServer();
    // Two workers of INIT 2 + RUN 2 slots: a window of 8 released jobs ahead of the RUN slots.
    await workers.start(2, "init=2,run=2,eval=2");
    const window = 8;
    const ids = await submitSleepJobs(first, 60, { initMs: 1_000, runMs: 300, evalMs: 100 });
    const { ledger } = deployment;
    const done = () => ids.filter((id) => ledger.terminalEvents(id).length > 0).length;
    await until(() => done() >= 4, "the first jobs to finish", 120_000);
    await first.proc.killHard();
    expect(done()).toBeLessThan(40);

    probe = new RedisJobQueue({ url: deployment.redis.url, prefix: deployment.prefix, onError: () => {} });
    const queue = probe;
    await deployment.startServer();
    // From the moment the new server listens (its start-up recovery done) to the last job: the
    // INIT items waiting in Redis never exceed the window.
    const mostWaiting = await mostInitWaitingUntilFinal(deployment, queue, ids);
    expect(mostWaiting).toBeLessThanOrEqual(window);
    expect((await deployment.storedJobs(ids)).map((job) => job.status)).toEqual(ids.map(() => "completed"));
    await until(() => done() === ids.length, "every terminal event");
    for (const id of ids) expect(ledger.terminalEvents(id), id).toHaveLength(1);
  }, 300_000);

  it("after a Redis restart, queues again only what was released: held jobs stay held", async () => {
    deployment = await Deployment.start();
    workers = new WorkerProcesses(deployment);
    const server = await deployment.startServer();
    await workers.start(2, "init=2,run=2,eval=2");
    const window = 8;
    const ids = await submitSleepJobs(server, 60, { initMs: 1_000, runMs: 300, evalMs: 100 });
    const { ledger } = deployment;
    const done = () => ids.filter((id) => ledger.terminalEvents(id).length > 0).length;
    await until(() => done() >= 4, "the first jobs to finish", 120_000);
    probe = new RedisJobQueue({ url: deployment.redis.url, prefix: deployment.prefix, onError: () => {} });
    const queue = probe;
    await deployment.redis.restart();
    // Every process re-queues from the store once Redis is back; the server knows which jobs its
    // admission still holds (they have no item to lose), the workers do not.
    await server.proc.waitForLine(/re-queued the items of every job stored as queued/);
    const mostWaiting = await mostInitWaitingUntilFinal(deployment, queue, ids);
    expect(mostWaiting).toBeLessThanOrEqual(window);
    expect((await deployment.storedJobs(ids)).map((job) => job.status)).toEqual(ids.map(() => "completed"));
  }, 300_000);
});
