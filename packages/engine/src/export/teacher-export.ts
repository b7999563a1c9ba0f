import {
  isTerminalStatus,
  type TJob,
  type TTeacher,
  type TTeacherScore,
  type TTrajectoryExport,
  ZTeacher,
} from "@raas/shared";

type TeacherFields = Pick<TTrajectoryExport, "teacherLogprobs" | "teacher">;

/**
 * The teacher's logprobs aligned to the export's token stream (pure): the teacher's logprob where
 * `lossMask` is 1, null where it is 0, as `logprobs`. The score covers the last turn's prompt +
 * response, which is the whole stream only when the trajectory is token-exact; otherwise the
 * logprobs cannot be placed and the teacher is reported missing. A job that named a teacher
 * (`payload.agent.teacher`) but has no score says why too; a job that named none gets neither field.
 */
export function exportTeacher(
  score: TTeacherScore | null,
  job: Pick<TJob, "payload" | "status">,
  stream: { tokens: readonly number[]; lossMask: readonly (0 | 1)[]; tokenExact: boolean },
): TeacherFields {
  const teacher = score?.teacher ?? namedTeacher(job.payload);
  if (!teacher) return {};
  const policyId = teacher.policyId ?? null;
  const missing = (reason: string): TeacherFields => ({
    teacher: {
      policyId,
      backendId: score?.backendId ?? teacher.backendId ?? null,
      isScored: false,
      missingReason: reason,
    },
  });
  if (!score) {
    return missing(
      isTerminalStatus(job.status)
        ? "the job ended before the teacher scored it"
        : "not scored yet: the trajectory is still running",
    );
  }
  if (score.logprobs === null)
    return missing(score.missingReason ?? "the teacher did not score the trajectory");
  if (!stream.tokenExact || score.scoredTokens !== stream.tokens.length) {
    return missing(
      `the teacher scored ${score.scoredTokens} tokens but the exported stream has ${stream.tokens.length}` +
        (stream.tokenExact ? "" : " (the trajectory is not token-exact)"),
    );
  }
  const logprobs = score.logprobs;
  return {
    teacherLogprobs: stream.lossMask.map((mask, i) => (mask === 1 ? (logprobs[i] ?? null) : null)),
    teacher: { policyId, backendId: score.backendId, isScored: true, missingReason: null },
  };
}

/** The teacher a job's payload names (`agent.teacher`, where a step's teacher lands too), if any. */
function namedTeacher(payload: Record<string, unknown>): TTeacher | null {
  const agent = payload.agent;
  if (typeof agent !== "object" || agent === null) return null;
  const parsed = ZTeacher.safeParse((agent as Record<string, unknown>).teacher);
  return parsed.success ? parsed.data : null;
}
