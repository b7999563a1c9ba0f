import type { TJob } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { runSweBenchmark, type SweJobGateway } from "../../src/swe/swe-benchmark-run";
import { buildSweReport } from "../../src/swe/swe-report-builder";
import { fixtureInstance } from "./support/swe-test-fixture";

const solved = fixtureInstance("raas-fixtures__tinystats-1");
const crashed = fixtureInstance("raas-fixtures__slugkit-7");

function job(id: string, patch: Partial<TJob>): TJob {
  return {
    id,
    jobKey: null,
    kind: "swe",
    status: "completed",
    stage: "eval",
    priority: 0,
    groupId: null,
    batchId: null,
    payload: {},
    metadata: null,
    timeoutsMs: null,
    failure: null,
    reward: null,
    trainable: null,
    result: null,
    timings: { queueMs: 0, initMs: null, runMs: null, evalMs: null },
    attempts: 1,
    createdAtMs: 0,
    updatedAtMs: 0,
    finishedAtMs: 0,
    ...patch,
  };
}

describe("runSweBenchmark", () => {
  it("submits one keyed job per instance, waits, and grades infrastructure failures as errors", async () => {
    const submitted: unknown[] = [];
    let polls = 0;
    const report = buildSweReport({
      instance: solved,
      modelPatch: solved.patch,
      statuses: new Map([...solved.FAIL_TO_PASS, ...solved.PASS_TO_PASS].map((test) => [test, "PASSED"])),
      patchApplyMethod: "git-apply",
    });
    const gateway: SweJobGateway = {
      async submit(requests) {
        submitted.push(...requests);
        return requests.map((_, index) => `job-${index}`);
      },
      async wait(ids) {
        polls += 1;
        // First poll: nothing finished yet; then both.
        if (polls === 1) return ids.map((id) => job(id, { status: "active" }));
        return [
          job("job-0", { reward: 1, result: { ...report, agent: { stopReason: "submitted" } } }),
          job("job-1", {
            status: "failed",
            failure: { kind: "sandbox", stage: "run", message: "sandbox crashed" },
          }),
        ];
      },
    };
    const progress: number[] = [];
    const outcome = await runSweBenchmark({
      instances: [solved, crashed],
      model: "qwen3-8b",
      runId: "run-1",
      gateway,
      onProgress: (p) => progress.push(p.finished),
      pollMs: 10,
    });
    expect(submitted).toMatchObject([
      {
        kind: "swe",
        jobKey: `swe-eval:run-1:${solved.instance_id}`,
        payload: { taskId: solved.instance_id },
      },
      { kind: "swe", jobKey: `swe-eval:run-1:${crashed.instance_id}` },
    ]);
    expect(progress).toEqual([0, 2]);
    expect(outcome.summary).toMatchObject({ total: 2, resolved: 1, errors: 1 });
    expect(outcome.errors).toEqual({ [crashed.instance_id]: "sandbox in run: sandbox crashed" });
    expect(outcome.report[solved.instance_id]).toMatchObject({
      resolved: true,
      patch_successfully_applied: true,
    });
    expect(outcome.report[crashed.instance_id]).toMatchObject({ resolved: false, patch_is_None: true });
    expect(
      outcome.predictionsJsonl
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { instance_id: solved.instance_id, model_name_or_path: "qwen3-8b", model_patch: solved.patch },
      { instance_id: crashed.instance_id, model_name_or_path: "qwen3-8b", model_patch: null },
    ]);
    expect(outcome.results[0]).toMatchObject({
      instanceId: solved.instance_id,
      jobId: "job-0",
      resolved: true,
      failToPass: Object.fromEntries(solved.FAIL_TO_PASS.map((test) => [test, "PASSED"])),
    });
    expect(outcome.results[1]).toMatchObject({
      resolved: false,
      failToPass: null,
      detail: { error: expect.any(String) },
    });
  });

  it("keeps at most maxInFlight jobs unfinished and rejects duplicate instances", async () => {
    const batches: number[] = [];
    const gateway: SweJobGateway = {
      async submit(requests) {
        batches.push(requests.length);
        return requests.map((request) => String(request.jobKey));
      },
      async wait(ids) {
        return ids.map((id) =>
          job(id, { status: "failed", failure: { kind: "eval", stage: "eval", message: "x" } }),
        );
      },
    };
    const outcome = await runSweBenchmark({
      instances: [solved, crashed],
      model: "m",
      runId: "r",
      gateway,
      maxInFlight: 1,
    });
    expect(batches).toEqual([1, 1]);
    expect(outcome.summary).toMatchObject({ total: 2, resolved: 0, errors: 2 });
    await expect(
      runSweBenchmark({ instances: [solved, solved], model: "m", runId: "r", gateway }),
    ).rejects.toThrow(/listed twice/);
  });
});
