import { newId, type TGroupMember, type TStepStats, ZCreateStepRequest } from "@raas/shared";
import type { GroupRecord, RunRecord, StepRecord } from "@raas/training";

// Records with every field set to a distinguishable value (JSON with nesting, unicode, nulls,
// fractional milliseconds), so a round trip that drops or mangles anything fails.

export function makeRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id: newId("run"),
    runKey: `run-key-${newId("k")}`,
    name: "qwen3-8b-dapo-math",
    model: "Qwen/Qwen3-8B",
    dataset: "dapo-math-17k",
    config: { lr: 1e-6, betas: [0.9, 0.999], schedule: { warmup: 10, kind: "cosine" }, note: 'é ✓ "q"' },
    status: "active",
    share: 2.5,
    priority: -3,
    maxSandboxes: 48,
    image: "/images/runs/trixie-oci:trixie",
    ownerId: "token:0123456789abcdef",
    policyId: "qwen3-8b-policy",
    retention: { archiveAfterSteps: 3, archiveAfterMs: 600_000 },
    stepCount: 3,
    createdAtMs: 1_764_000_000_000.25,
    updatedAtMs: 1_764_000_000_500.5,
    taskCursors: { "dapo-math-17k": 96, gsm8k: 0 },
    version: 0,
    ...overrides,
  };
}

function stats(): TStepStats {
  const entry = { jobs: 2, rolloutSeconds: 12.75, generatedTokens: 4_096 };
  return {
    groupsStarted: 12,
    groupsDecided: 9,
    informative: 5,
    uninformative: 3,
    failedGroups: 1,
    groupsDelivered: 4,
    jobsSubmitted: 100,
    jobsCancelled: 7,
    infraRetries: 2,
    trajectoriesCarriedIn: 3,
    trajectoriesCarriedOver: 0,
    staleWithheld: 1,
    staleRegenerated: 0,
    trajectories: 32,
    rewardMean: 0.4375,
    rewardStd: 0.49607837,
    rewardMin: 0,
    rewardMax: 1,
    solvedFraction: null,
    meanTrajectoryTokens: 1_234.5,
    uncertifiedDropped: 1,
    verifierCrashes: 2,
    jobFailures: { jobs: 3, causes: { "sandbox/init": { jobs: 3, lastMessage: "bwrap: no space left" } } },
    waste: {
      cancelled: entry,
      zeroVariance: { ...entry, jobs: 24 },
      stale: entry,
      infraFailures: entry,
      uncertified: { ...entry, jobs: 2 },
      expiredLongShots: { ...entry, jobs: 3 },
      tampered: { ...entry, jobs: 4 },
    },
  };
}

export function makeStep(runId: string, overrides: Partial<StepRecord> = {}): StepRecord {
  const request = ZCreateStepRequest.parse({
    runId,
    stepKey: "step-0",
    tasks: {
      type: "inline",
      tasks: [
        { taskId: "t-1", kind: "math", payload: { question: "1+1?", answer: "2", meta: [null, 1.5] } },
        { taskId: "t-2", kind: "math", payload: { question: "√4 ∈ ℕ?", answer: "yes" } },
      ],
    },
    groupSize: 8,
    groups: 4,
    agent: { temperature: 0.7, maxTurns: 3 },
    dynamicSampling: { policy: "zero-variance", overProvision: 1.5 },
    staleness: { maxVersions: 1 },
    shuffleSeed: 42,
  });
  return {
    id: newId("stp"),
    runId,
    index: 0,
    stepKey: "step-0",
    status: "running",
    groupSize: 8,
    groups: 4,
    policy: "zero-variance",
    stats: stats(),
    deliveredSeq: 4,
    createdAtMs: 1_764_000_001_000.125,
    closedAtMs: null,
    request,
    nextTaskIndex: 12,
    rewards: {
      count: 32,
      sum: 14,
      sumOfSquares: 14,
      min: 0,
      max: 1,
      finished: 40,
      solved: 17,
      deliveredTokens: 39_504,
    },
    version: 0,
    ...overrides,
  };
}

function member(slot: number, overrides: Partial<TGroupMember> = {}): TGroupMember {
  return {
    slot,
    jobId: `job_${slot}`,
    status: "finished",
    reward: slot % 2 === 0 ? 1 : 0,
    failureKind: null,
    attempts: 1,
    dispatchVersion: 7,
    isStale: false,
    carriedFromStepId: null,
    rolloutMs: 1_500.5,
    generatedTokens: 812,
    pastJobIds: [],
    ...overrides,
  };
}

export function makeGroup(step: StepRecord, overrides: Partial<GroupRecord> = {}): GroupRecord {
  return {
    id: newId("grp"),
    stepId: step.id,
    runId: step.runId,
    taskId: "t-1",
    kind: "math",
    decision: "informative",
    state: "delivered",
    seq: 1,
    members: [
      member(0),
      member(1, {
        status: "failed",
        reward: null,
        failureKind: "sandbox",
        attempts: 3,
        pastJobIds: ["job_a", "job_b"],
      }),
      member(2, { status: "running", reward: null, dispatchVersion: null, carriedFromStepId: "stp_prev" }),
    ],
    createdAtMs: 1_764_000_002_000.75,
    decidedAtMs: 1_764_000_003_000,
    finishedAtMs: 1_764_000_003_000.5,
    task: { taskId: "t-1", kind: "math", payload: { question: "1+1?", answer: "2", meta: [null, 1.5] } },
    carriedIntoGroupId: null,
    expiredInStepId: null,
    version: 0,
    ...overrides,
  };
}
