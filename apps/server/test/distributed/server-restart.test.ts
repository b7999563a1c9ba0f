import { isTerminalStatus } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { useCluster } from "./support/cluster";
import { submitSleepJobs, until } from "./support/deployment";

// The server (API-only) restarted with 100 jobs in flight on two worker processes: the workers
// go on through the restart, the new server process serves the same jobs from the store, and
// every job completes, each reported once on the bus.
describe("a server restart in distributed mode", () => {
  const cluster = useCluster({ startServer: false });

  it("with 100 jobs in flight: all complete, once each", async () => {
    const { deployment, workers } = cluster;
    const first = await deployment.startServer();
    await workers.start(2, "init=8,run=8,eval=8");
    const ids = await submitSleepJobs(first, 100, { initMs: 100, runMs: 500, evalMs: 200 });
    const { ledger } = deployment;
    const done = () => ids.filter((id) => ledger.terminalEvents(id).length > 0).length;
    await until(() => done() >= 5, "the first jobs to finish");
    // kill -9: nothing of the server's is left to drain or flush (it runs no pools).
    await first.proc.killHard();
    expect(done()).toBeLessThan(100);

    const second = await deployment.startServer();
    await until(
      async () => (await deployment.storedJobs(ids)).every((job) => isTerminalStatus(job.status)),
      "every job in a final state",
      240_000,
    );
    expect((await deployment.storedJobs(ids)).map((job) => job.status)).toEqual(ids.map(() => "completed"));
    await until(() => done() === ids.length, "every terminal event");
    for (const id of ids) expect(ledger.terminalEvents(id), id).toHaveLength(1);
    // The new server answers for jobs submitted to the old one.
    const waited = await second.rest<{ done: boolean }>("/api/v1/jobs/wait", { ids, timeoutMs: 0 });
    expect(waited.done).toBe(true);
  }, 300_000);
});
