import { isTerminalStatus } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { useCluster } from "./support/cluster";
import { submitSleepJobs, until } from "./support/deployment";

// workers.drain on one of two worker processes: once it has heard of the drain (its next
// heartbeat), the jobs it holds finish there, and jobs submitted afterwards all run on the other.
describe("draining a worker process", () => {
  const cluster = useCluster({ startServer: false });

  it("finishes the jobs it holds and takes no new ones", async () => {
    const { deployment, workers } = cluster;
    const server = await deployment.startServer();
    const [drained, other] = await workers.start(2, "init=2,run=2,eval=2", {
      RAAS_WORKER_HEARTBEAT_MS: "500",
    });
    if (!drained || !other) throw new Error("two workers expected");
    const payload = { initMs: 100, runMs: 2_000, evalMs: 100 };
    const before = await submitSleepJobs(server, 8, payload);
    const store = await deployment.store();
    await until(async () => (await store.listJobsHeldBy(drained.id)).length > 0, "the worker to hold jobs");

    await server.rest(`/api/v1/workers/${encodeURIComponent(drained.id)}/drain`, {});
    await until(async () => {
      const health = (await (await fetch(`${drained.httpUrl}/health`)).json()) as { status: string };
      return health.status === "draining";
    }, "the worker to hear of its drain");
    const held = (await store.listJobsHeldBy(drained.id)).map((stored) => stored.record.id);
    const after = await submitSleepJobs(server, 8, payload);

    const all = [...before, ...after];
    await until(
      async () => (await deployment.storedJobs(all)).every((job) => isTerminalStatus(job.status)),
      "every job in a final state",
      120_000,
    );
    for (const id of held) {
      const stored = await store.readJob(id);
      expect(stored?.record).toMatchObject({ status: "completed", attempts: 1 });
      expect(stored?.handoff?.workerId).toBe(drained.id);
    }
    for (const id of after) {
      const stored = await store.readJob(id);
      expect(stored?.record).toMatchObject({ status: "completed", attempts: 1 });
      expect(stored?.handoff?.workerId).toBe(other.id);
    }
    const { workers: listed } = await server.rest<{ workers: Array<{ id: string; status: string }> }>(
      "/api/v1/workers",
    );
    expect(listed.find((worker) => worker.id === drained.id)?.status).toBe("draining");
  }, 300_000);
});
