import type { JobRecord } from "@raas/engine";
import { newId, type TSandboxEvent, type TToolCall, type TTurn } from "@raas/shared";

/** A queued job with every field set to a distinguishable value; override what a test needs. */
export function makeJob(overrides: Partial<JobRecord> = {}): JobRecord {
  const createdAtMs = 1_764_000_000_000.25;
  return {
    id: newId("job"),
    jobKey: null,
    kind: "sleep",
    status: "queued",
    stage: "init",
    priority: 0,
    groupId: null,
    batchId: null,
    payload: { prompt: "hello", list: [1, 2, { deep: true }], nothing: null },
    metadata: null,
    ownerId: null,
    policyId: "default",
    timeoutsMs: null,
    failure: null,
    reward: null,
    trainable: null,
    result: null,
    timings: { queueMs: 0, initMs: null, runMs: null, evalMs: null },
    attempts: 0,
    createdAtMs,
    updatedAtMs: createdAtMs,
    finishedAtMs: null,
    ...overrides,
  };
}

/** A finished job with every nullable field filled, to check a full round trip. */
export function makeFinishedJob(overrides: Partial<JobRecord> = {}): JobRecord {
  return makeJob({
    jobKey: `key-${newId("k")}`,
    status: "failed",
    stage: "eval",
    priority: -7,
    groupId: "grp_full",
    batchId: "bat_full",
    metadata: { run: "qwen3-8b", step: 12, tags: ["a", "b"] },
    ownerId: "token:fedcba9876543210",
    policyId: "run-b-policy",
    timeoutsMs: { init: 1_000, run: 60_000, eval: 30_000 },
    failure: { kind: "eval", stage: "eval", message: "pytest crashed: 'quotes' and \\ backslashes" },
    reward: 0.125,
    trainable: false,
    result: { FAIL_TO_PASS: { "tests/test_a.py::t1": "FAILED" }, score: [0.5, 1] },
    timings: { queueMs: 12.5, initMs: 1_500.75, runMs: 42_000, evalMs: 3.000_1 },
    attempts: 2,
    updatedAtMs: 1_764_000_099_999.5,
    finishedAtMs: 1_764_000_100_000,
    ...overrides,
  });
}

export function makeTurn(jobId: string, index: number, overrides: Partial<TTurn> = {}): TTurn {
  return {
    jobId,
    index,
    promptIds: [151_644, 872, 198, 0, 2_147_483_647, 151_667],
    responseIds: [151_667, 40, 1_000_000],
    logprobs: [-0.1, -3.217654321, -1e-7],
    backendId: "vllm-0",
    weightVersion: "w-3",
    weightVersionSpans: null,
    cachedPromptTokens: 4,
    latencyMs: 123.456,
    finishReason: "stop",
    text: "<think>ok",
    createdAtMs: 1_764_000_000_500 + index,
    ...overrides,
  };
}

export function makeToolCall(
  jobId: string,
  turnIndex: number,
  index: number,
  overrides: Partial<TToolCall> = {},
): TToolCall {
  return {
    jobId,
    turnIndex,
    index,
    name: "bash",
    arguments: { command: `echo ${turnIndex}.${index}`, env: ["A=1"] },
    output: `${turnIndex}.${index}\n`,
    exitCode: 0,
    durationMs: 4.5,
    isError: false,
    createdAtMs: 1_764_000_000_600 + turnIndex * 10 + index,
    ...overrides,
  };
}

export function makeSandboxEvent(
  sandboxId: string,
  jobId: string | null,
  atMs: number,
  type = "ready",
): TSandboxEvent {
  return { sandboxId, jobId, type, state: "ready", detail: { atMs, note: type }, atMs };
}
