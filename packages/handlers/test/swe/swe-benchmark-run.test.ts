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
    ownerId: null,
    policyId: "default",
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

const fresh = (id: string) => ({ id, created: true, status: "queued" as const });

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
        return requests.map((_, index) => fresh(`job-${index}`));
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
      specs: { [solved.repo]: { testDirectives: ["tests"] } },
      onProgress: (p) => progress.push(p.finished),
      pollMs: 10,
    });
    expect(submitted).toMatchObject([
      {
        kind: "swe",
        jobKey: `swe-eval:run-1:${solved.instance_id}`,
        payload: { taskId: solved.instance_id, spec: { testDirectives: ["tests"] } },
      },
      { kind: "swe", jobKey: `swe-eval:run-1:${crashed.instance_id}` },
    ]);
    expect((submitted[1] as { payload: object }).payload).not.toHaveProperty("spec");
    expect(progress).toEqual([0, 2]);
    expect(outcome.summary).toMatchObject({
      total_instances: 2,
      submitted_instances: 2,
      completed_instances: 1,
      resolved_ids: [solved.instance_id],
      error_ids: [crashed.instance_id],
    });
    expect(outcome.errors).toEqual({ [crashed.instance_id]: "sandbox in run: sandbox crashed" });
    expect(outcome.reports.map((r) => r.instanceId)).toEqual([solved.instance_id]);
    expect(outcome.results.map((r) => r.instanceId)).toEqual([crashed.instance_id, solved.instance_id]);
    expect(outcome.results[1]).toMatchObject({
      jobId: "job-0",
      resolved: true,
      failToPass: Object.fromEntries(solved.FAIL_TO_PASS.map((test) => [test, "PASSED"])),
    });
    expect(outcome.results[0]).toMatchObject({
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
        return requests.map((request) => fresh(String(request.jobKey)));
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
    expect(outcome.summary).toMatchObject({ total_instances: 2, resolved_instances: 0, error_instances: 2 });
    await expect(
      runSweBenchmark({ instances: [solved, solved], model: "m", runId: "r", gateway }),
    ).rejects.toThrow(/listed twice/);
  });

  it("grades predictions without rollouts and, on resume, retries only the instances that errored", async () => {
    // The service's jobs by key: a previous invocation graded `solved` and errored on `crashed`.
    const byKey = new Map<string, TJob>([
      [
        `swe-eval:r:${solved.instance_id}`,
        job("old-0", {
          reward: 0,
          result: buildSweReport({ instance: solved, modelPatch: "diff", statuses: new Map() }),
        }),
      ],
      [
        `swe-eval:r:${crashed.instance_id}`,
        job("old-1", { status: "failed", failure: { kind: "eval", stage: "eval", message: "flaky" } }),
      ],
    ]);
    const requests: Array<{ jobKey?: string; payload: unknown }> = [];
    const gateway: SweJobGateway = {
      async submit(batch) {
        return batch.map((request) => {
          requests.push(request as { jobKey?: string; payload: unknown });
          const existing = byKey.get(String(request.jobKey));
          if (existing) return { id: existing.id, created: false, status: existing.status };
          const created = job(`new-${byKey.size}`, {
            reward: 1,
            result: {
              ...buildSweReport({
                instance: crashed,
                modelPatch: "diff",
                statuses: new Map(
                  [...crashed.FAIL_TO_PASS, ...crashed.PASS_TO_PASS].map((t) => [t, "PASSED"]),
                ),
              }),
            },
          });
          byKey.set(String(request.jobKey), created);
          return { id: created.id, created: true, status: "queued" as const };
        });
      },
      async wait(ids) {
        return [...byKey.values()].filter((j) => ids.includes(j.id));
      },
    };
    const empty = fixtureInstance("raas-fixtures__spans-12");
    const outcome = await runSweBenchmark({
      instances: [solved, crashed, empty],
      model: "org/model",
      runId: "r",
      gateway,
      predictions: [
        { instance_id: solved.instance_id, model_name_or_path: "org/model", model_patch: "diff" },
        { instance_id: crashed.instance_id, model_name_or_path: "org/model", model_patch: "diff" },
        { instance_id: empty.instance_id, model_name_or_path: "org/model", model_patch: "" },
      ],
    });
    expect(requests.map((r) => r.jobKey)).toEqual([
      `swe-eval:r:${solved.instance_id}`,
      `swe-eval:r:${crashed.instance_id}`,
      `swe-eval:r:${crashed.instance_id}#2`,
    ]);
    expect(requests[2]?.payload).toMatchObject({ taskId: crashed.instance_id, modelPatch: "diff" });
    expect(requests[2]?.payload).not.toHaveProperty("agent");
    expect(outcome.errors).toEqual({});
    expect(outcome.summary).toMatchObject({
      submitted_instances: 3,
      completed_ids: [solved.instance_id, crashed.instance_id].sort(),
      resolved_ids: [crashed.instance_id],
      unresolved_ids: [solved.instance_id],
      empty_patch_ids: [empty.instance_id],
      error_instances: 0,
    });
    expect(outcome.results.find((r) => r.instanceId === crashed.instance_id)).toMatchObject({
      jobId: "new-2",
      detail: { attempt: 2 },
    });
    await expect(
      runSweBenchmark({
        instances: [solved],
        model: "m",
        runId: "r",
        gateway,
        predictions: [{ instance_id: "nope", model_name_or_path: "m", model_patch: "x" }],
      }),
    ).rejects.toThrow(/not in the dataset: nope/);
  });
});
