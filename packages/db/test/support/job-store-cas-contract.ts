import type { JobPatch, JobStore, JobTransitionWrite } from "@raas/engine";
import { expect, it } from "vitest";
import { makeJob } from "./job-fixtures";

const complete = (id: string, expectedVersion: number): JobTransitionWrite => ({
  patch: { id, status: "completed", stage: "eval", reward: 1, trainable: true, finishedAtMs: 2 },
  expectedVersion,
  version: expectedVersion + 1,
});

const cancel = (id: string, expectedVersion: number): JobTransitionWrite => ({
  patch: {
    id,
    status: "cancelled",
    failure: { kind: "cancelled", stage: "run", message: "cancelled by request" },
    trainable: false,
    finishedAtMs: 3,
  },
  expectedVersion,
  version: expectedVersion + 1,
});

/** Compare-and-set transitions: registered inside the JobStore contract, run on every adapter. */
export function compareAndSetContract(store: () => JobStore): void {
  it("stores a new job at version 0 with no handoff; a transition names the version it read", async () => {
    const job = makeJob();
    await store().insertJobs([job]);
    expect(await store().readJob(job.id)).toEqual({ record: job, version: 0, handoff: null });
    const activate: JobPatch = { id: job.id, status: "active", updatedAtMs: 5 };
    const handoff = { workerId: "w1", sandboxId: null };
    expect(
      await store().transitionJobs([{ patch: activate, expectedVersion: 0, version: 1, handoff }]),
    ).toEqual([]);
    expect(await store().readJob(job.id)).toEqual({
      record: { ...job, status: "active", updatedAtMs: 5 },
      version: 1,
      handoff,
    });
    // A stale writer (still at version 0) loses and changes nothing.
    expect(await store().transitionJobs([complete(job.id, 0)])).toEqual([job.id]);
    expect((await store().readJob(job.id))?.record.status).toBe("active");
    // An unknown job loses too; `handoff` left out keeps the stored one.
    const next = { ...complete(job.id, 1), version: 3 };
    expect(await store().transitionJobs([next, complete("job_unknown", 0)])).toEqual(["job_unknown"]);
    expect(await store().readJob(job.id)).toMatchObject({
      version: 3,
      handoff,
      record: { status: "completed" },
    });
  });

  it("of two racing transitions of many jobs, exactly one wins each job and it ends in one terminal state", async () => {
    const jobs = Array.from({ length: 40 }, () => makeJob({ status: "active", stage: "run" }));
    await store().insertJobs(jobs);
    const [lostByCompleter, lostByCanceller] = await Promise.all([
      store().transitionJobs(jobs.map((job) => complete(job.id, 0))),
      store().transitionJobs([...jobs].reverse().map((job) => cancel(job.id, 0))),
    ]);
    for (const job of jobs) {
      const completerWon = !lostByCompleter.includes(job.id);
      const cancellerWon = !lostByCanceller.includes(job.id);
      expect(completerWon !== cancellerWon).toBe(true);
      const stored = await store().readJob(job.id);
      expect(stored?.version).toBe(1);
      expect(stored?.record.status).toBe(completerWon ? "completed" : "cancelled");
      expect(stored?.record.reward).toBe(completerWon ? 1 : null);
    }
    // Whoever lost, retrying at the version it read still loses: a job has one terminal state.
    expect((await store().transitionJobs(jobs.map((job) => cancel(job.id, 0)))).sort()).toEqual(
      jobs.map((job) => job.id).sort(),
    );
  });

  it("applies several writes of one job in one call in order, each against the version before it", async () => {
    const job = makeJob();
    await store().insertJobs([job]);
    const lost = await store().transitionJobs([
      { patch: { id: job.id, status: "active" }, expectedVersion: 0, version: 1 },
      { patch: { id: job.id, status: "queued", stage: "run" }, expectedVersion: 1, version: 2 },
      complete(job.id, 7),
    ]);
    expect(lost).toEqual([job.id]);
    expect(await store().readJob(job.id)).toMatchObject({
      version: 2,
      record: { status: "queued", stage: "run" },
    });
  });

  it("lists the unfinished jobs a worker holds, by their handoff", async () => {
    const [held, other, done, fresh] = [makeJob(), makeJob(), makeJob(), makeJob()];
    await store().insertJobs([held, other, done, fresh]);
    const hold = (id: string, workerId: string): JobTransitionWrite => ({
      patch: { id, status: "queued", stage: "run" },
      expectedVersion: 0,
      version: 1,
      handoff: { workerId, sandboxId: `sbx-${id}` },
    });
    await store().transitionJobs([hold(held.id, "w2"), hold(other.id, "w1"), hold(done.id, "w2")]);
    await store().transitionJobs([complete(done.id, 1)]);
    const list = await store().listJobsHeldBy("w2");
    expect(list.map((stored) => stored.record.id)).toEqual([held.id]);
    expect(list[0]).toMatchObject({ version: 1, handoff: { workerId: "w2", sandboxId: `sbx-${held.id}` } });
    expect(await store().listJobsHeldBy("w3")).toEqual([]);
  });
}
