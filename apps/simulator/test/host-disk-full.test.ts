// The chaos bench's "sandbox-disk-full" fault, deterministically: the disk holding the worker's
// sandboxes (a real tmpfs) runs full just as a job's agent makes its first tool call. Before, the
// editor's ENOSPC came back as the policy's own failed call, an empty solution.py was graded and
// code-012 scored reward 0 (trainable) where a fault-free run scores 1. A full host disk is
// infrastructure: the job fails as `sandbox`, with no reward, and is not trained on.
import type { Sandbox } from "@raas/engine";
import { TmpfsDisk } from "@raas/sandbox/testing";
import { TERMINAL_STATUSES, type TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput } from "../src/index";
import { type RolloutFixture, readDataJson, readTasks, startRolloutFixture } from "./support/rollout-fixture";

const policy = readDataJson<TPolicyConfigInput>("simulator/math-code-stem.policy.json");
const expected = readDataJson<Record<string, number>>("simulator/expected-rewards.json");
const TASKS = ["code-012", "math-001"];
const jobs = [
  ...readTasks("code.jsonl").map((payload) => ({ kind: "code", payload })),
  ...readTasks("math.jsonl").map((payload) => ({ kind: "math", payload })),
].filter((job) => TASKS.includes(String(job.payload.taskId)));

describe("a job whose agent works while the host's sandbox disk is full", () => {
  let disk: TmpfsDisk;
  let fixture: RolloutFixture;
  /** While set, the disk is filled as each sandbox's first tool call begins. */
  let fillOnFirstToolCall = false;

  beforeAll(async () => {
    disk = TmpfsDisk.mount(32);
    fixture = await startRolloutFixture({
      policy,
      baseDir: disk.baseDir,
      // One start per job: the disk stays full for the whole first run, so a restart (a sandbox
      // failure at any stage restarts from INIT) would only fail again, or, once it is freed
      // under load, complete: the classification asserted below is the first attempt's.
      maxAttempts: 1,
      wrapSandbox: (sandbox) => fillingOnFirstToolCall(sandbox, () => fillOnFirstToolCall && disk.fill()),
    });
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
    disk?.unmount();
  });

  const run = async (): Promise<Map<string, TJob>> => {
    const submitted = await fixture.engine.submitJobs(jobs);
    const { jobs: finished } = await fixture.engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: 180_000 },
    );
    expect(finished.every((job) => TERMINAL_STATUSES.includes(job.status))).toBe(true);
    return new Map(finished.map((job) => [String((job.payload as { taskId: string }).taskId), job]));
  };

  it("fails as infrastructure (kind sandbox, no reward, not trainable), and earns the fault-free rewards once the disk has room", async () => {
    fillOnFirstToolCall = true;
    let byTask: Map<string, TJob>;
    try {
      byTask = await run();
    } finally {
      fillOnFirstToolCall = false;
      disk.free();
    }
    for (const taskId of TASKS) {
      const job = byTask.get(taskId);
      expect({ taskId, status: job?.status, kind: job?.failure?.kind, reward: job?.reward }).toEqual({
        taskId,
        status: "failed",
        kind: "sandbox",
        reward: null,
      });
      expect(job?.trainable).toBe(false);
      expect(job?.failure?.message).toMatch(/no space left on the host's disk/);
    }
    const again = await run();
    for (const taskId of TASKS) {
      expect({ taskId, status: again.get(taskId)?.status, reward: again.get(taskId)?.reward }).toEqual({
        taskId,
        status: "completed",
        reward: expected[taskId],
      });
    }
  }, 400_000);
});

/** `sandbox`, calling `onFirst` just before its first tool call goes out. */
function fillingOnFirstToolCall(sandbox: Sandbox, onFirst: () => void): Sandbox {
  let isFirst = true;
  return new Proxy(sandbox, {
    get(target, property) {
      if (property === "runTool") {
        return (...args: Parameters<Sandbox["runTool"]>) => {
          if (isFirst) onFirst();
          isFirst = false;
          return target.runTool(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
