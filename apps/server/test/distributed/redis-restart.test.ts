import { isTerminalStatus } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { Deployment, submitSleepJobs, until } from "./support/deployment";
import { errorLogLines } from "./support/error-log-lines";
import { WorkerProcesses } from "./support/worker-processes";

let deployment: Deployment | null = null;
let workers: WorkerProcesses | null = null;
afterEach(async () => {
  await workers?.stopAll();
  await deployment?.dispose();
  deployment = null;
  workers = null;
});

// Redis restarted (no persistence) under a distributed deployment running jobs — the API-only
// server and two worker processes: every queue item and lease is gone. Each process reports the
// outage and re-queues what the store holds as queued; no job is left stuck.
describe("a Redis restart during a distributed run", () => {
  it("is reported, and afterwards every job completes; none reported twice", async () => {
    deployment = await Deployment.start();
    const server = await deployment.startServer();
    workers = new WorkerProcesses(deployment);
    const spawned = await workers.start(2, "init=2,run=2,eval=2");
    const ids = await submitSleepJobs(server, 40, { initMs: 100, runMs: 300, evalMs: 100 });
    const { ledger } = deployment;
    // Mid-run: some jobs finished, others queued or running in each stage.
    await until(() => ids.filter((id) => ledger.terminalEvents(id).length > 0).length >= 4, "4 jobs done");
    await deployment.redis.restart();

    await server.proc.waitForLine(/redis queue: connection lost/);
    await server.proc.waitForLine(/redis queue: connection restored/);
    await server.proc.waitForLine(/re-queued the items of every job stored as queued/);
    await until(
      async () => (await deployment!.storedJobs(ids)).every((job) => isTerminalStatus(job.status)),
      "every job in a final state",
      120_000,
    );
    const jobs = await deployment.storedJobs(ids);
    expect(jobs.map((job) => job.status)).toEqual(ids.map(() => "completed"));
    // Events published while Redis was away are lost (at most once), never doubled.
    for (const id of ids) expect(ledger.terminalEvents(id).length).toBeLessThanOrEqual(1);
    expect(server.proc.isRunning).toBe(true);
    for (const worker of spawned)
      expect(worker.output()).toMatch(/re-queued the items of every job stored as queued/);
    // Ridden out, the outage was a warning in every process, never an error.
    expect(errorLogLines(server, spawned)).toEqual([]);
    // Three process starts and a 120 s settle bound: vitest's 60 s default is too short under load.
  }, 300_000);
});
