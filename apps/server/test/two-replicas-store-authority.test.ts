import { randomUUID } from "node:crypto";
import { MemoryEventBus, MemoryJobQueue, type RolloutEngine } from "@raas/engine";
import type { TJob } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { probeJob, startTwoEnginesOnPostgres } from "./two-engines.fixture";

/** Resolves with the job once either engine's listeners hear it end (each hears its own ends). */
function ended(engines: readonly RolloutEngine[], jobId: string): Promise<TJob> {
  return new Promise((resolve) => {
    const unsubscribes = engines.map((engine) =>
      engine.subscribe(({ job }) => {
        if (job.id !== jobId || job.finishedAtMs === null) return;
        for (const unsubscribe of unsubscribes) unsubscribe();
        resolve(job);
      }),
    );
  });
}

// Two replicas on one PostgreSQL schema (a connection pool each) sharing a queue, whose buses do
// not reach each other (each has its own: every job event and cancel between them is lost). What
// one replica did to a job, the other can learn from the store only.
describe("two replicas over one PostgreSQL store, with no bus between them", () => {
  let started: Awaited<ReturnType<typeof startTwoEnginesOnPostgres>> | null = null;

  async function start() {
    const queue = new MemoryJobQueue();
    started = await startTwoEnginesOnPostgres({
      queues: [queue, queue],
      buses: [new MemoryEventBus(), new MemoryEventBus()],
    });
    return started;
  }

  afterEach(async () => {
    await started?.stop();
    started = null;
  });

  it("A reads the jobs B finished as stored, and cancelling them through A cancels nothing", async () => {
    const { a, b, runs, stores } = await start();
    const submitted = await a.submitJobs(
      Array.from({ length: 6 }, () => probeJob({ initMs: 5, runMs: 5, evalMs: 5 })),
    );
    const ids = submitted.map((s) => s.job.id);
    const finished = await Promise.all(ids.map((id) => ended([a, b], id)));
    expect(finished.map((job) => job.status)).toEqual(ids.map(() => "completed"));

    for (const id of ids) {
      const stored = await stores[0].readJob(id);
      const worker = runs.find((r) => r.jobId === id && r.stage === "eval")?.worker;
      const read = await a.getJob(id);
      expect(read).toEqual(stored?.record);
      expect(read).toMatchObject({ status: "completed", reward: 1, result: { by: worker } });
      expect(await a.cancel({ jobId: id })).toEqual({ cancelled: [] });
      expect(await stores[1].readJob(id)).toEqual(stored);
    }
  });

  it("A cancels a job running on B in the store, and B reads it cancelled", async () => {
    const { a, b, stores } = await start();
    // A takes no work: the job runs on B.
    for (const stage of ["init", "run", "eval"] as const) a.setConcurrency(stage, 0);
    const { job } = await a.submitJob(probeJob({ initMs: 5, runMs: 60_000, evalMs: 5 }));
    const running = new Promise<void>((resolve) => {
      const unsubscribe = b.subscribe((event) => {
        if (event.job.id !== job.id || event.job.stage !== "run" || event.job.status !== "active") return;
        unsubscribe();
        resolve();
      });
    });
    await running;
    const before = await stores[0].readJob(job.id);

    expect(await a.cancel({ jobId: job.id })).toEqual({ cancelled: [job.id] });
    const after = await stores[1].readJob(job.id);
    expect(after?.version).toBe((before?.version ?? 0) + 1);
    expect(after?.record).toMatchObject({
      status: "cancelled",
      failure: { kind: "cancelled", stage: "run" },
    });
    expect(await b.getJob(job.id)).toEqual(after?.record);
  });
  it("a keyed resubmit to A answers the job as stored after B cancelled it", async () => {
    const { a, b, stores } = await start();
    for (const engine of [a, b])
      for (const stage of ["init", "run", "eval"] as const) engine.setConcurrency(stage, 0);
    const request = { ...probeJob({ initMs: 5, runMs: 5, evalMs: 5 }), jobKey: `key-${randomUUID()}` };
    const first = await a.submitJob(request);
    expect(first).toMatchObject({ created: true, job: { status: "queued" } });

    expect(await b.cancel({ jobId: first.job.id })).toEqual({ cancelled: [first.job.id] });
    const again = await a.submitJob(request);
    expect(again).toMatchObject({ created: false, job: { id: first.job.id, status: "cancelled" } });
    expect(again.job).toEqual((await stores[0].readJob(first.job.id))?.record);
  });
});
