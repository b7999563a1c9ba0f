import { describe, expect, it } from "vitest";
import { MemoryJobStore } from "../memory/memory-job-store";
import type { JobRecord, JobTransitionWrite } from "../ports/job-record.types";
import { StoreHealth } from "../store-health/store-health";
import { StoreWriter } from "./store-writer";

const job = (id: string): JobRecord => ({
  id,
  jobKey: null,
  kind: "sleep",
  status: "queued",
  stage: "init",
  priority: 0,
  groupId: null,
  batchId: null,
  payload: {},
  metadata: null,
  ownerId: null,
  policyId: "default",
  timeoutsMs: null,
  failure: null,
  reward: null,
  trainable: null,
  result: null,
  timings: { queueMs: 0, initMs: null, runMs: null, evalMs: null },
  attempts: 1,
  createdAtMs: 1,
  updatedAtMs: 1,
  finishedAtMs: null,
});

describe("StoreWriter compare-and-set transitions", () => {
  it("coalesces a job's transitions of one batch into one write and reports each won", async () => {
    const store = new MemoryJobStore();
    const writer = new StoreWriter(store, { maxDelayMs: 1 });
    const inserted = writer.insert(job("job_a"));
    const handoff = { workerId: "w1", sandboxId: null };
    const results = Promise.all([
      writer.transition({ id: "job_a", status: "active" }, 0, handoff),
      writer.transition({ id: "job_a", status: "queued", stage: "run" }, 1),
    ]);
    await inserted;
    expect(await results).toEqual([true, true]);
    expect(await store.readJob("job_a")).toMatchObject({ version: 2, handoff, record: { stage: "run" } });
  });

  it("settles false for a job another writer moved first, and for its later transitions", async () => {
    const store = new MemoryJobStore();
    await store.insertJobs([job("job_b"), job("job_c")]);
    const ours = new StoreWriter(store, { maxDelayMs: 1 });
    const theirs = new StoreWriter(store, { maxDelayMs: 1 });
    await theirs.transition({ id: "job_b", status: "cancelled" }, 0);
    const results = await Promise.all([
      ours.transition({ id: "job_b", status: "active" }, 0),
      ours.transition({ id: "job_b", status: "completed" }, 1),
      ours.transition({ id: "job_c", status: "active" }, 0),
    ]);
    expect(results).toEqual([false, false, true]);
    expect((await store.getJob("job_b"))?.status).toBe("cancelled");
    expect(await store.readJob("job_c")).toMatchObject({ version: 1, record: { status: "active" } });
  });

  it("counts a write that committed before its call failed (then retried) as won", async () => {
    // A real store whose first transition call commits and then throws, as when the connection
    // drops after COMMIT: the retry finds the version already moved — by this very write.
    class CommitThenFail extends MemoryJobStore {
      failures = 0;
      override async transitionJobs(writes: readonly JobTransitionWrite[]): Promise<string[]> {
        const lost = await super.transitionJobs(writes);
        if (this.failures-- > 0) throw new Error("connection lost after COMMIT");
        return lost;
      }
    }
    const store = new CommitThenFail();
    await store.insertJobs([job("job_d"), job("job_e")]);
    await store.transitionJobs([
      { patch: { id: "job_e", status: "cancelled", updatedAtMs: 9 }, expectedVersion: 0, version: 1 },
    ]);
    store.failures = 1;
    const writer = new StoreWriter(store, { maxDelayMs: 1, retryDelayMs: 1 });
    const results = await Promise.all([
      writer.transition({ id: "job_d", status: "active", stage: "init", updatedAtMs: 5 }, 0),
      writer.transition({ id: "job_e", status: "active", stage: "init", updatedAtMs: 5 }, 0),
    ]);
    expect(results).toEqual([true, false]);
    expect(await store.readJob("job_d")).toMatchObject({ version: 1, record: { status: "active" } });
  });

  it("refuses new jobs during an outage with a warning; a store that rejects them is an error", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const duplicate = new Error('duplicate key value violates unique constraint "Job_pkey"');
    class RefusingStore extends MemoryJobStore {
      constructor(readonly failure: Error) {
        super();
      }
      override async insertJobs(): Promise<void> {
        throw this.failure;
      }
    }
    const levels = async (failure: Error) => {
      const logged: string[] = [];
      const record = (level: string) => () => void logged.push(level);
      const logger = {
        debug: record("debug"),
        info: record("info"),
        warn: record("warn"),
        error: record("error"),
      };
      const writer = new StoreWriter(
        new RefusingStore(failure),
        { maxDelayMs: 1, health: new StoreHealth() },
        logger,
      );
      await expect(writer.insert(job("job_f"))).rejects.toBe(failure);
      return logged;
    };
    expect(await levels(refused)).toEqual(["warn"]);
    expect(await levels(duplicate)).toEqual(["error"]);
  });
});
