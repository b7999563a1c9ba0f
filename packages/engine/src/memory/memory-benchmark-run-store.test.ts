import { FailureError } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { MemoryBenchmarkRunStore } from "./memory-benchmark-run-store";

const run = {
  model: "Qwen3-8B",
  dataset: "swe-mini",
  split: null,
  status: "running",
  config: { maxTurns: 5 },
};
const result = {
  instanceId: "b__b-2",
  jobId: "job_1",
  resolved: true,
  failToPass: { "t.py::a": "PASSED" },
  passToPass: {},
  detail: null,
  createdAtMs: 5,
};

describe("MemoryBenchmarkRunStore", () => {
  it("keeps runs newest first, counts results, replaces a re-recorded instance", async () => {
    const store = new MemoryBenchmarkRunStore();
    await store.createRun({ id: "r1", createdAtMs: 1, ...run });
    await store.createRun({ id: "r2", createdAtMs: 2, ...run, model: "Qwen3-4B" });
    await store.recordResults("r1", [result, { ...result, instanceId: "a__a-1", resolved: false }]);
    expect(await store.getRun("r1")).toMatchObject({ totalCount: 2, resolvedCount: 1, finishedAtMs: null });
    await store.recordResults("r1", [{ ...result, instanceId: "a__a-1", resolved: true }]);
    expect(await store.getRun("r1")).toMatchObject({ totalCount: 2, resolvedCount: 2 });
    expect((await store.listResults("r1")).map((r) => [r.runId, r.instanceId])).toEqual([
      ["r1", "a__a-1"],
      ["r1", "b__b-2"],
    ]);
    await store.finishRun("r1", "completed", 9);
    expect(await store.getRun("r1")).toMatchObject({ status: "completed", finishedAtMs: 9 });
    expect((await store.listRuns()).map((r) => r.id)).toEqual(["r2", "r1"]);
    expect((await store.listRuns({ model: "Qwen3-8B", dataset: "swe-mini" })).map((r) => r.id)).toEqual([
      "r1",
    ]);
    expect(await store.listRuns({ dataset: "other" })).toEqual([]);
    expect(await store.listResults("nope")).toEqual([]);
  });

  it("averages the results' numeric detail.reward; SWE results and errors carry none", async () => {
    const store = new MemoryBenchmarkRunStore();
    await store.createRun({ id: "env", createdAtMs: 1, ...run });
    expect(await store.getRun("env")).toMatchObject({ rewardCount: 0, meanReward: null });
    await store.recordResults("env", [
      { ...result, instanceId: "t1", detail: { reward: 1, jobId: "job_1" } },
      { ...result, instanceId: "t2", resolved: false, detail: { reward: 0.5, jobId: "job_2" } },
      { ...result, instanceId: "t3", resolved: false, detail: { reward: null, error: "eval in eval: boom" } },
      { ...result, instanceId: "t4", detail: null },
    ]);
    expect(await store.getRun("env")).toMatchObject({ totalCount: 4, rewardCount: 2, meanReward: 0.75 });
    await store.recordResults("env", [{ ...result, instanceId: "t2", detail: { reward: 0 } }]);
    expect(await store.getRun("env")).toMatchObject({ rewardCount: 2, meanReward: 0.5 });
  });

  it("rejects a duplicate id (CONFLICT) and writes to an unknown run (NOT_FOUND); copies records", async () => {
    const store = new MemoryBenchmarkRunStore();
    await store.createRun({ id: "r1", createdAtMs: 1, ...run });
    await expect(store.createRun({ id: "r1", createdAtMs: 2, ...run })).rejects.toMatchObject({
      failure: {
        code: "CONFLICT",
      },
    });
    await expect(store.recordResults("r9", [result])).rejects.toBeInstanceOf(FailureError);
    await expect(store.finishRun("r9", "failed", 1)).rejects.toMatchObject({
      failure: { code: "NOT_FOUND" },
    });
    const read = await store.getRun("r1");
    (read?.config as Record<string, unknown>).maxTurns = 99;
    expect((await store.getRun("r1"))?.config).toEqual({ maxTurns: 5 });
  });
});
