import type { TStage } from "@raas/shared";
import { isTerminalStatus } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { useCluster } from "./support/cluster";
import { submitSleepJobs, until } from "./support/deployment";

// kill -9 of a worker process (by its pid) while jobs run on it, in each stage: the server's
// monitor finds it lost and its jobs restart elsewhere from INIT. None is lost (every job reaches
// a final state), none is reported twice (one terminal event each on the bus), and a job ends
// either completed or — after the retry limit — as an infrastructure failure, never anything else.
describe("kill -9 of a worker in distributed mode", () => {
  const cluster = useCluster();

  const slowIn = (stage: TStage) => ({
    initMs: stage === "init" ? 4_000 : 100,
    runMs: stage === "run" ? 4_000 : 100,
    evalMs: stage === "eval" ? 4_000 : 100,
  });

  // Two live workers in each case: the survivor of the case before and one started for this case
  // (a worker start is the slow part of a case on a loaded machine).
  const live = new Set<string>();
  for (const stage of ["init", "run", "eval"] as const) {
    it(`during ${stage.toUpperCase()}: each job completes on another worker once, or fails as infrastructure`, async () => {
      const { deployment, server, workers } = cluster;
      const started = await workers.start(2 - live.size, "init=2,run=2,eval=2");
      for (const worker of started) live.add(worker.id);
      const ids = await submitSleepJobs(server, 4, slowIn(stage));
      const { ledger } = deployment;
      // The phase from the bus: a job's activation in `stage` is published once stored.
      let victim = "";
      await until(() => {
        victim =
          ids.find((id) => ledger.latest(id)?.status === "active" && ledger.latest(id)?.stage === stage) ??
          "";
        return victim !== "";
      }, `a job active in ${stage}`);
      const store = await deployment.store();
      const holderId = (await store.readJob(victim))?.handoff?.workerId;
      const holder = holderId ? workers.byId(holderId) : undefined;
      expect(holder, `the worker holding ${victim}`).toBeDefined();
      await holder?.kill();
      live.delete(holderId as string);

      let unfinished = "";
      await until(
        async () => {
          const open = (await deployment.storedJobs(ids)).filter((job) => !isTerminalStatus(job.status));
          // Named in the time-out message, so a stuck job says where it stuck.
          unfinished = open
            .map((job) => `${job.id} ${job.status}(${job.stage}) attempt ${job.attempts}`)
            .join(", ");
          return open.length === 0;
        },
        () => `every job in a final state (victim ${victim} on ${holderId}; still open: ${unfinished})`,
        240_000,
      );
      for (const job of await deployment.storedJobs(ids)) {
        if (job.status === "completed") continue;
        expect(job).toMatchObject({ status: "failed", failure: { kind: "sandbox" } });
      }
      const victimJob = (await store.readJob(victim))!;
      expect(victimJob.record.status).toBe("completed");
      expect(victimJob.record.attempts).toBeGreaterThanOrEqual(2);
      expect(victimJob.handoff?.workerId).not.toBe(holderId);
      await until(() => ids.every((id) => ledger.terminalEvents(id).length > 0), "every terminal event");
      for (const id of ids) expect(ledger.terminalEvents(id), id).toHaveLength(1);
      await server.rest("/api/v1/workers?includeStopped=true");
    }, 300_000);
  }
});
