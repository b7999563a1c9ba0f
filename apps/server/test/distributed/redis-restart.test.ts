import { isTerminalStatus } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { Deployment, submitSleepJobs, until } from "./support/deployment";

let deployment: Deployment | null = null;
afterEach(async () => {
  await deployment?.dispose();
  deployment = null;
});

// Redis restarted (no persistence) under a distributed server running jobs: every queue item and
// lease is gone. The server reports the outage, re-queues what the store holds as queued, and no
// job is left stuck: all reach a final state.
describe("a Redis restart during a distributed run", () => {
  it("is reported, and afterwards every job completes; none reported twice", async () => {
    deployment = await Deployment.start();
    const server = await deployment.startServer({ RAAS_SERVER_POOLS: "init=4,run=4,eval=4" });
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
  });
});
