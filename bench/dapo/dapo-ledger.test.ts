import { describe, expect, it } from "vitest";
import {
  baselineLedger,
  groupsPerHour,
  isFinishedSample,
  type JobOutcome,
  judgeGroup,
  unaccountedSamples,
} from "./dapo-ledger";
import { buildDapoTasks, dapoPolicyConfig, zeroVarianceChance } from "./dapo-workload";

const job = (
  jobId: string,
  status: JobOutcome["status"],
  reward: number | null,
  extra: Partial<JobOutcome> = {},
) => ({
  jobId,
  status,
  reward,
  trainable: status === "completed" ? true : status === "failed" ? false : null,
  rolloutMs: 1_000,
  generatedTokens: 10,
  ...extra,
});

describe("judgeGroup", () => {
  it("is informative once every member finished and the rewards differ", () => {
    expect(judgeGroup([job("a", "completed", 1), job("b", "completed", 0)])).toBe("informative");
    expect(judgeGroup([job("a", "completed", 1), job("b", "completed", 1)])).toBe("uninformative");
  });

  it("waits for running members and fails on infrastructure failures or cancels", () => {
    expect(judgeGroup([job("a", "completed", 1), undefined])).toBe("pending");
    expect(judgeGroup([job("a", "completed", 1), job("b", "failed", null)])).toBe("failed");
    expect(judgeGroup([job("a", "cancelled", null), undefined])).toBe("failed");
  });

  it("counts an agent failure (trainable) as a finished sample", () => {
    const agentFault = job("b", "failed", 0, { trainable: true });
    expect(isFinishedSample(agentFault)).toBe(true);
    expect(judgeGroup([job("a", "completed", 1), agentFault])).toBe("informative");
  });
});

describe("baselineLedger", () => {
  it("puts each job in the category its group's fate and its own status give", () => {
    const outcomes = new Map(
      [
        job("d1", "completed", 1),
        job("d2", "completed", 0),
        job("z1", "completed", 0),
        job("z2", "completed", 0),
        job("s1", "completed", 1),
        job("x1", "completed", 1, { generatedTokens: 7 }),
        job("x2", "cancelled", null, { generatedTokens: 3, rolloutMs: 500 }),
        job("f1", "failed", null),
      ].map((o) => [o.jobId, o as JobOutcome]),
    );
    const ledger = baselineLedger(
      [
        { jobIds: ["d1", "d2"], fate: "delivered" },
        { jobIds: ["z1", "z2"], fate: "zero-variance" },
        { jobIds: ["s1"], fate: "surplus" },
        { jobIds: ["x1", "x2"], fate: "dropped" },
        { jobIds: ["f1"], fate: "failed" },
      ],
      outcomes,
    );
    expect(ledger.zeroVariance).toEqual({ jobs: 2, rolloutSeconds: 2, generatedTokens: 20 });
    expect(ledger.thrownAway).toEqual({ jobs: 2, rolloutSeconds: 2, generatedTokens: 17 });
    expect(ledger.cancelled).toEqual({ jobs: 1, rolloutSeconds: 0.5, generatedTokens: 3 });
    expect(ledger.infraFailures.jobs).toBe(1);
    expect(ledger.stale.jobs).toBe(0);
  });
});

describe("unaccountedSamples", () => {
  const member = (jobId: string, status = "finished") => ({ jobId, status });
  it("accepts delivered, carried, withheld and zero-variance samples and names the rest", () => {
    const groups = [
      { state: "delivered", decision: "informative", members: [member("a"), member("b")] },
      { state: "carried", decision: "undecided", members: [member("c"), member("x", "cancelled")] },
      { state: "withheld", decision: "informative", members: [member("d")] },
      { state: "dropped", decision: "uninformative", members: [member("e")] },
      { state: "dropped", decision: "failed", members: [member("f")] },
    ];
    expect(unaccountedSamples(["a", "b", "c", "d", "e", "f", "g"], groups)).toEqual(["f", "g"]);
  });
});

describe("workload", () => {
  it("mixes always-solved, never-solved and mixed tasks with a long tail of turns", () => {
    const tasks = buildDapoTasks(2_000, 3);
    const share = (predicate: (p: number) => boolean) =>
      tasks.filter((t) => predicate(t.probability)).length / tasks.length;
    expect(share((p) => p === 1)).toBeGreaterThan(0.25);
    expect(share((p) => p === 1)).toBeLessThan(0.35);
    expect(share((p) => p === 0)).toBeGreaterThan(0.25);
    expect(share((p) => p > 0.19 && p < 0.81 && p !== 0 && p !== 1)).toBeGreaterThan(0.35);
    const turns = tasks.map((t) => t.successTurns).sort((a, b) => a - b);
    expect(turns.at(-1)).toBeGreaterThanOrEqual(4 * (turns[Math.floor(turns.length / 2)] as number));
    expect(tasks.every((t) => t.failureTurns >= t.successTurns)).toBe(true);
    expect(buildDapoTasks(10, 3)).toEqual(tasks.slice(0, 10));
  });

  it("scripts each task's success and failure for the simulator's success-probability policy", () => {
    const [task] = buildDapoTasks(1, 5);
    const config = dapoPolicyConfig([task as NonNullable<typeof task>]);
    expect(config.kind).toBe("success-probability");
    const scripts = config.kind === "success-probability" ? config.tasks?.[task?.taskId ?? ""] : undefined;
    expect(scripts?.success?.steps).toHaveLength(task?.successTurns ?? 0);
    expect(scripts?.failure?.steps.at(-1)?.toolCalls?.[0]).toEqual({
      name: "submit",
      arguments: { answer: "wrong" },
    });
  });

  it("computes the zero-variance chance of a group and a rate per hour", () => {
    expect(zeroVarianceChance(1, 8)).toBe(1);
    expect(zeroVarianceChance(0.5, 2)).toBeCloseTo(0.5);
    expect(groupsPerHour(10, 60_000)).toBe(600);
    expect(groupsPerHour(10, 0)).toBe(0);
  });
});
