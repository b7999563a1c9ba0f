import type { TTeacher } from "@raas/shared";
import type { Clock } from "../ports/clock.port";
import type { InferencePool } from "../ports/inference-pool.port";
import type { TrajectoryRecorder } from "../ports/task-handler.port";

/** How long the teacher may take to score one trajectory, in ms, before it is recorded missing. */
const TEACHER_TIMEOUT_MS = 120_000;

export interface TeacherScoringInput {
  jobId: string;
  inference: Pick<InferencePool, "scorePrompt">;
  teacher: TTeacher;
  /** The trajectory's turns in order; the last one's prompt + response is the whole stream. */
  turns: readonly { promptIds: readonly number[]; responseIds: readonly number[] }[];
  recorder: TrajectoryRecorder;
  /** The stage's signal: a cancel or a stage timeout ends the scoring as it ends the stage. */
  signal: AbortSignal;
  clock: Pick<Clock, "now">;
}

/**
 * Scores the finished trajectory once on the teacher and records the result (on-policy
 * distillation). The last turn's prompt already holds every earlier prompt and response
 * (token-in/token-out), so one scoring of it + the last response covers the sampled tokens of
 * every turn. A teacher that fails is infrastructure, not the policy's doing, and must not cost
 * a trajectory that is otherwise good: it is recorded as missing with the reason and the stage
 * goes on (no retry: a trainer that wants it whole filters on `teacher.isScored`). Only the
 * stage's own abort (cancel, stage timeout) is rethrown.
 */
export async function scoreWithTeacher(input: TeacherScoringInput): Promise<void> {
  const { teacher, recorder } = input;
  const last = input.turns.at(-1);
  const stream = last ? [...last.promptIds, ...last.responseIds] : [];
  const missing = (reason: string, backendId: string | null = teacher.backendId ?? null) =>
    recorder.teacherScore?.({
      teacher,
      backendId,
      scoredTokens: stream.length,
      logprobs: null,
      missingReason: reason,
    });
  if (stream.length < 2) return missing("the trajectory has no tokens to score");
  const { scorePrompt } = input.inference;
  if (!scorePrompt) return missing("this service's inference pool cannot score prompts");
  try {
    const scored = await scorePrompt.call(input.inference, {
      jobId: input.jobId,
      promptIds: stream,
      teacher,
      signal: input.signal,
      deadlineMs: input.clock.now() + TEACHER_TIMEOUT_MS,
    });
    if (scored.logprobs.length !== stream.length) {
      return missing(
        `teacher backend ${scored.backendId} returned ${scored.logprobs.length} logprobs for ${stream.length} tokens`,
        scored.backendId,
      );
    }
    recorder.teacherScore?.({
      teacher,
      backendId: scored.backendId,
      scoredTokens: stream.length,
      logprobs: scored.logprobs,
      missingReason: null,
    });
  } catch (error) {
    if (input.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    missing(`the teacher failed: ${message}`, backendIdOf(error) ?? teacher.backendId ?? null);
  }
}

/** The backend an inference failure names, when it names one. */
function backendIdOf(error: unknown): string | null {
  const failure = (error as { failure?: { inference?: { backendId?: unknown } } } | null)?.failure;
  const backendId = failure?.inference?.backendId;
  return typeof backendId === "string" ? backendId : null;
}
