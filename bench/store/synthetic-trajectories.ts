// Synthetic finished trajectories of realistic size for the store bench: an agent on a math/code
// task with 1–4 model turns (first prompt 400 tokens, 150–350 sampled tokens per turn, 80
// observation tokens and one tool call between turns), ids from Qwen3's vocabulary range.
import type { JobRecord } from "@raas/engine";
import { seededRandom, type TToolCall, type TTurn } from "@raas/shared";

const VOCAB = 151_936;
const FIRST_PROMPT_TOKENS = 400;
const OBSERVATION_TOKENS = 80;
const FAILURE_KINDS = ["sandbox", "agent", "timeout", "inference", "eval"] as const;
const KINDS = ["math", "code", "swe", "stem"] as const;

export interface Layout {
  runs: number;
  /** Trajectories per step (groups × group size). */
  perStep: number;
  groupSize: number;
  tasksPerRun: number;
}

export const LAYOUT: Layout = { runs: 20, perStep: 128, groupSize: 8, tasksPerRun: 5_000 };

export function runIdOf(run: number): string {
  return `run_bench_${String(run).padStart(3, "0")}`;
}
export function stepIdOf(step: number): string {
  return `stp_bench_${String(step).padStart(7, "0")}`;
}
export function groupIdOf(step: number, group: number): string {
  return `grp_bench_${String(step).padStart(7, "0")}_${String(group).padStart(2, "0")}`;
}
export function taskIdOf(run: number, task: number): string {
  return `task-${run % 4}-${String(task).padStart(5, "0")}`;
}

export interface SyntheticTrajectory {
  job: JobRecord;
  turns: TTurn[];
  toolCalls: TToolCall[];
}

/** Where trajectory `i` sits: steps are dealt round-robin over the runs. */
export function placeOf(i: number): { step: number; run: number; group: number; slot: number } {
  const step = Math.floor(i / LAYOUT.perStep);
  const within = i % LAYOUT.perStep;
  return {
    step,
    run: step % LAYOUT.runs,
    group: Math.floor(within / LAYOUT.groupSize),
    slot: within % LAYOUT.groupSize,
  };
}

/**
 * Token ids and logprobs are sliced from one seeded pool at random offsets: drawing ~1 800
 * random numbers per trajectory would make the generator, not the store, the bench's bottleneck.
 */
const POOL_SIZE = 1 << 20;
const poolRandom = seededRandom(42);
const ID_POOL = Array.from({ length: POOL_SIZE }, () => Math.floor(poolRandom() * VOCAB));
const LOGPROB_POOL = Array.from({ length: POOL_SIZE }, () => Math.fround(-poolRandom() * 2));

function slice(pool: readonly number[], random: () => number, count: number): number[] {
  const from = Math.floor(random() * (POOL_SIZE - count));
  return pool.slice(from, from + count);
}

function ids(random: () => number, count: number): number[] {
  return slice(ID_POOL, random, count);
}

/** Trajectory `i` (deterministic in `i`): a finished job with its turns and tool calls. */
export function syntheticTrajectory(i: number, createdAtMs: number): SyntheticTrajectory {
  const random = seededRandom(i * 2_654_435_761);
  const { step, run, group, slot } = placeOf(i);
  const id = `job_bench_${String(i).padStart(8, "0")}`;
  const turnCount = 1 + Math.floor(random() * 4);
  const failed = random() < 0.12;
  const failureKind = failed ? FAILURE_KINDS[Math.floor(random() * FAILURE_KINDS.length)] : undefined;
  const reward = failed && failureKind !== "agent" ? null : random() < 0.45 ? 1 : random() < 0.2 ? 0.5 : 0;
  const turns: TTurn[] = [];
  const toolCalls: TToolCall[] = [];
  let prompt = ids(random, FIRST_PROMPT_TOKENS);
  for (let index = 0; index < turnCount; index += 1) {
    const responseIds = ids(random, 150 + Math.floor(random() * 201));
    turns.push({
      jobId: id,
      index,
      promptIds: prompt,
      responseIds,
      logprobs: slice(LOGPROB_POOL, random, responseIds.length),
      backendId: `vllm-${run % 4}`,
      weightVersion: `w-${step}`,
      weightVersionSpans: null,
      cachedPromptTokens: index === 0 ? 0 : prompt.length - OBSERVATION_TOKENS,
      latencyMs: 800 + random() * 2_000,
      finishReason: index === turnCount - 1 ? "stop" : "tool_calls",
      text: null,
      createdAtMs: createdAtMs + index * 1_000,
    });
    if (index < turnCount - 1) {
      toolCalls.push({
        jobId: id,
        turnIndex: index,
        index: 0,
        name: "bash",
        arguments: { command: `python3 solve.py --case ${index}` },
        output: `case ${index}: ${"x".repeat(200 + Math.floor(random() * 300))}`,
        exitCode: 0,
        durationMs: 50 + random() * 500,
        isError: false,
        createdAtMs: createdAtMs + index * 1_000 + 500,
      });
      prompt = [...prompt, ...responseIds, ...ids(random, OBSERVATION_TOKENS)];
    }
  }
  const kind = KINDS[run % KINDS.length] as string;
  const job: JobRecord = {
    id,
    jobKey: `${groupIdOf(step, group)}:${slot}:0`,
    kind,
    status: failed ? "failed" : "completed",
    stage: failed ? "run" : "eval",
    priority: 0,
    groupId: groupIdOf(step, group),
    batchId: null,
    payload: {
      taskId: taskIdOf(run, (step * 16 + group) % LAYOUT.tasksPerRun),
      question: "What is 17 * 23?",
    },
    metadata: {
      runId: runIdOf(run),
      stepId: stepIdOf(step),
      stepIndex: Math.floor(step / LAYOUT.runs),
      taskId: taskIdOf(run, (step * 16 + group) % LAYOUT.tasksPerRun),
      slot,
    },
    ownerId: null,
    policyId: "default",
    timeoutsMs: null,
    failure: failureKind ? { kind: failureKind, stage: "run", message: `${failureKind} failure` } : null,
    reward,
    trainable: !failed || failureKind === "agent",
    result: failed ? null : { answer: "391" },
    timings: { queueMs: 20, initMs: 300 + random() * 500, runMs: turnCount * 1_500, evalMs: 50 },
    attempts: 1,
    createdAtMs,
    updatedAtMs: createdAtMs + turnCount * 1_000 + 500,
    finishedAtMs: createdAtMs + turnCount * 1_000 + 500,
  };
  return { job, turns, toolCalls };
}

/** Prompt ids a store keeping every prompt whole would hold for this trajectory. */
export function wholePromptTokens(trajectory: SyntheticTrajectory): number {
  return trajectory.turns.reduce((sum, turn) => sum + turn.promptIds.length, 0);
}
