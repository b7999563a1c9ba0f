import { isTerminalStatus, type TJob } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { useCluster } from "./support/cluster";
import { until } from "./support/deployment";
import { mathBackendEnv, mathTasks } from "./support/math-tasks";
import { descendantsOf, isRunning } from "./support/process-tree";

// kill -9 of a worker process while its jobs are in RUN with real bubblewrap sandboxes (every
// simulator turn takes 2 s, so RUN lasts): the sandboxes die with the worker (bwrap runs with
// --die-with-parent, the sandbox's processes in its pid namespace), and the job completes on the
// other worker from INIT, reported once.
describe("kill -9 of a worker holding bubblewrap sandboxes", () => {
  const cluster = useCluster({ simulator: { seed: 7, overheadMs: 2_000 } });

  it("leaves no process of its sandboxes behind; its job completes elsewhere, once", async () => {
    const { deployment, server, workers } = cluster;
    const env = mathBackendEnv(cluster.simulator);
    await workers.start(2, "init=2,run=2,eval=2", env);
    const jobs = mathTasks(["math-001", "math-016"]).map((payload) => ({ kind: "math", payload }));
    const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", { jobs });
    const ids = results.map((result) => result.job.id);
    const { ledger } = deployment;
    let victim = "";
    await until(() => {
      victim =
        ids.find((id) => ledger.latest(id)?.status === "active" && ledger.latest(id)?.stage === "run") ?? "";
      return victim !== "";
    }, "a job active in RUN");
    const store = await deployment.store();
    const holder = workers.byId((await store.readJob(victim))?.handoff?.workerId ?? "");
    if (!holder) throw new Error(`no worker process holds ${victim}`);
    const below = descendantsOf(holder.pid);
    expect(below.filter((p) => p.comm === "bwrap").length).toBeGreaterThan(0);

    await holder.kill();
    await until(
      () => below.every((p) => !isRunning(p.pid)),
      "the killed worker's sandbox processes to end",
      30_000,
    );

    await until(
      async () => (await deployment.storedJobs(ids)).every((job) => isTerminalStatus(job.status)),
      "every job in a final state",
      240_000,
    );
    const after = (await store.readJob(victim))!;
    expect(after.record).toMatchObject({ status: "completed" });
    expect(after.record.attempts).toBeGreaterThanOrEqual(2);
    expect(after.handoff?.workerId).not.toBe(holder.id);
    await until(() => ids.every((id) => ledger.terminalEvents(id).length > 0), "every terminal event");
    for (const id of ids) expect(ledger.terminalEvents(id), id).toHaveLength(1);
  }, 300_000);
});
