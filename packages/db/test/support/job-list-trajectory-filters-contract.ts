import type { JobStore } from "@raas/engine";
import { ZJobListRequest } from "@raas/shared";
import { beforeEach, describe, expect, it } from "vitest";
import { makeJob } from "./job-fixtures";

const list = (query: Parameters<typeof ZJobListRequest.parse>[0]) => ZJobListRequest.parse(query);

/** `listJobs` by the batch system's metadata labels (run, task) and by reward range; every adapter alike. */
export function describeTrajectoryFilterContract(getStore: () => JobStore): void {
  describe("listJobs by run, task and reward", () => {
    const label = (runId: string, taskId: string) => ({ runId, stepId: "stp_1", taskId, slot: 0 });
    const jobs = [
      makeJob({ metadata: label("run_a", "t1"), status: "completed", reward: 1 }),
      makeJob({ metadata: label("run_a", "t2"), status: "completed", reward: 0 }),
      makeJob({ metadata: label("run_b", "t1"), status: "completed", reward: 0.5 }),
      makeJob({ metadata: label("run_a", "t1"), status: "failed", reward: null }),
      makeJob({ metadata: { note: "no labels" }, status: "completed", reward: 1 }),
    ];
    const ids = (indices: number[]) =>
      indices
        .map((index) => jobs[index]!.id)
        .sort()
        .reverse();
    const found = async (query: Parameters<typeof list>[0]) =>
      (await getStore().listJobs(list(query))).items.map((job) => job.id);

    beforeEach(async () => {
      await getStore().insertJobs(jobs);
    });

    it("filters by the run and task labels, alone and together", async () => {
      expect(await found({ runId: "run_a" })).toEqual(ids([0, 1, 3]));
      expect(await found({ taskId: "t1" })).toEqual(ids([0, 2, 3]));
      expect(await found({ runId: "run_a", taskId: "t1" })).toEqual(ids([0, 3]));
      expect(await found({ runId: "run_missing" })).toEqual([]);
    });

    it("filters by a reward range, leaving out jobs without a reward", async () => {
      expect(await found({ minReward: 0.5 })).toEqual(ids([0, 2, 4]));
      expect(await found({ maxReward: 0.5 })).toEqual(ids([1, 2]));
      expect(await found({ minReward: 0.25, maxReward: 0.75 })).toEqual(ids([2]));
      expect(await found({ runId: "run_a", minReward: 0, search: jobs[1]!.id })).toEqual(ids([1]));
    });
  });
}
