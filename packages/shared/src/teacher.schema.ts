import { z } from "zod";
import { ZPolicyId } from "./policy.schema";

/**
 * The teacher of on-policy distillation: the backends that score each finished trajectory's
 * sampled tokens (vLLM `prompt_logprobs`, SGLang `input_token_logprobs`). Exactly one of a policy
 * (any of its registered backends, e.g. one registered under `teacher`) or one backend by id.
 */
export const ZTeacher = z
  .object({
    policyId: ZPolicyId.optional().describe(
      "Score on a backend registered under this policy (`backends.register` with `policyId`); the teacher's policy is never trained.",
    ),
    backendId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe("Score on this registered backend (`backends.list`)."),
  })
  .strict()
  .refine((teacher) => (teacher.policyId === undefined) !== (teacher.backendId === undefined), {
    message: "name exactly one of policyId or backendId",
  })
  .meta({
    id: "Teacher",
    description:
      "The teacher that scores each finished trajectory's tokens for on-policy distillation: a policy's backends or one backend.",
  });
export type TTeacher = z.infer<typeof ZTeacher>;

/**
 * What the teacher made of one trajectory, as stored (one per job): the logprob of each token of
 * the scored stream given the tokens before it (null for the first), or why there are none.
 */
export interface TTeacherScore {
  jobId: string;
  /** The teacher as named, for the export to say which it was. */
  teacher: TTeacher;
  /** The backend that scored; null when none did. */
  backendId: string | null;
  /** Tokens scored: the final turn's prompt + response (the whole trajectory when token-exact). */
  scoredTokens: number;
  /** One per scored token (null for the first); null when the teacher is missing. */
  logprobs: (number | null)[] | null;
  /** Why `logprobs` is null (a teacher down, a backend kind that cannot score); null when scored. */
  missingReason: string | null;
  createdAtMs: number;
}

/** How the export reports a job's teacher: present when the job named one. */
export const ZExportedTeacher = z
  .object({
    policyId: z.string().nullable().describe("The teacher's policy, when it was named by policy."),
    backendId: z
      .string()
      .nullable()
      .describe("The backend that scored (or the one named); null when none was reached."),
    isScored: z
      .boolean()
      .describe("True when `teacherLogprobs` holds the teacher's logprobs; false when they are missing."),
    missingReason: z
      .string()
      .nullable()
      .describe(
        "Why the teacher logprobs are missing (the teacher failed or timed out, its backend kind cannot score prompts, the stream is not token-exact, the job ended before it was scored); null when scored. A teacher failure is infrastructure: the trajectory keeps its reward and trainability.",
      ),
  })
  .meta({ id: "ExportedTeacher", description: "Whether a job's teacher logprobs are there, and why not." });
