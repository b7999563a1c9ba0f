import { describe, expect, it } from "vitest";
import { batchHarnessPerTest, closedStep, groupTask } from "./batch-harness";

const start = batchHarnessPerTest();

describe("BatchSystem: verifier crashes", () => {
  it("counts every job whose verifier gave no score, as infrastructure or as a wrong answer", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "crashing-verifier" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [groupTask("crashes", [1, 1, 1], { verifierCrashSlots: [0], verifierFailures: [0, 1] })],
      },
      groupSize: 3,
      groups: 1,
    });
    const done = await closedStep(h, step.id);
    expect(done.status).toBe("completed");
    // Slot 0: a crash the environment counts as wrong (reward 0); slot 1: a crash as infrastructure
    // on its first attempt (re-run, then scored); slot 2: no crash.
    expect(done.stats.verifierCrashes).toBe(2);
    expect(done.stats.jobFailures).toMatchObject({ jobs: 1, causes: { "eval/eval": { jobs: 1 } } });
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 1, timeoutMs: 100 });
    expect(result.groups[0]?.rewards).toEqual([0, 1, 1]);
  });
});
