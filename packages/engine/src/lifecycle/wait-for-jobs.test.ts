import type { TJob } from "@raas/shared";
import { describe, expect, it } from "vitest";
import type { JobEventListener } from "../engine.types";
import { ManualClock } from "../testing/manual-clock";
import { waitForJobs } from "./wait-for-jobs";

function job(status: TJob["status"], updatedAtMs: number): TJob {
  return { id: "job_1", status, stage: "eval", updatedAtMs } as TJob;
}

describe("waitForJobs", () => {
  it("re-reads an unfinished job from the store when its end was never announced", async () => {
    const clock = new ManualClock();
    let stored = job("active", 1);
    const listeners = new Set<JobEventListener>();
    const waiting = waitForJobs(
      ["job_1"],
      { timeoutMs: 60_000 },
      {
        getJob: async () => stored,
        subscribe: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        clock,
        recheckMs: 5_000,
      },
    );
    await clock.advance(0); // the first read is done, the re-check timer set
    await clock.advance(1_000);
    // The job ends in the store; its event is lost (no listener is called).
    stored = job("completed", 2);
    await clock.advance(4_000);

    const result = await waiting;
    expect(result.done).toBe(true);
    expect(result.jobs[0]?.status).toBe("completed");
    expect(listeners.size).toBe(0);
  });

  it("answers the stored state at its timeout when the job is still unfinished", async () => {
    const clock = new ManualClock();
    let reads = 0;
    const waiting = waitForJobs(
      ["job_1"],
      { timeoutMs: 12_000 },
      {
        getJob: async () => {
          reads += 1;
          return job("active", reads);
        },
        subscribe: () => () => {},
        clock,
        recheckMs: 5_000,
      },
    );
    await clock.advance(0); // the first read is done, the re-check timer set
    await clock.advance(12_000);

    const result = await waiting;
    expect(result.done).toBe(false);
    // The first read, one at 5 s, one at 10 s and one at the 12 s deadline.
    expect(reads).toBe(4);
    expect(clock.pendingTimers).toBe(0);
  });
});
