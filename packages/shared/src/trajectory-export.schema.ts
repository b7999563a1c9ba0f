import { z } from "zod";
import { ZStageTimings } from "./job.schema";
import { ZFailureKind, ZFailureLabel, ZJobStatus } from "./job-status";
import { ZSamplingParams } from "./sampling.schema";
import { ZExportedTeacher } from "./teacher.schema";
import { ZTopLogprob, ZWeightVersionSpan } from "./trajectory.schema";
import { ZExportedTurnReward } from "./turn-reward.schema";

/** Where a flat token stream is sliced: the offsets of one turn's sampled tokens in `tokens`. */
const ZTurnSpan = z
  .object({
    index: z.number().int().nonnegative().describe("The turn's index (0 for the first model call)."),
    start: z
      .number()
      .int()
      .nonnegative()
      .describe("Offset in `tokens` of the turn's first sampled token (= the length of its prompt)."),
    end: z
      .number()
      .int()
      .nonnegative()
      .describe("Offset in `tokens` just past the turn's last sampled token (exclusive)."),
    weightVersion: z
      .string()
      .nullable()
      .describe(
        "Weight version of the backend that sampled the turn (for a turn continued across a weight sync, the one that finished it); null when it reported none.",
      ),
    weightVersionSpans: z
      .array(ZWeightVersionSpan)
      .describe(
        "The weight version of every sampled token of the turn: spans with offsets into `tokens`, covering `[start, end)` in order — one span when the whole turn came from one version, several when an `abort-and-continue` weight sync continued it under another (mask or correct the off-policy tokens with them).",
      ),
    backendId: z.string().nullable().describe("Id of the inference backend that sampled the turn."),
    finishReason: z
      .string()
      .nullable()
      .describe("Why sampling stopped (`stop`, `length`, …); null when the backend did not say."),
    cachedPromptTokens: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe(
        "Prompt tokens the backend served from its prefix cache for this turn; null when it did not say.",
      ),
    latencyMs: z.number().nonnegative().describe("Wall time of the generation request in milliseconds."),
    sampling: ZSamplingParams.nullable().describe(
      "The sampling parameters the turn was generated with (the job's or step's, never a harness's: the logprobs are under this distribution); null for turns recorded before they were kept.",
    ),
  })
  .meta({
    id: "TurnSpan",
    description: "Where one turn's sampled tokens sit in the flat stream, and how they were sampled.",
  });
export type TTurnSpan = z.infer<typeof ZTurnSpan>;

const TOKEN_BREAK_KINDS = ["prefix-mismatch", "missing-turn", "logprob-count"] as const;

/** The first place a stored trajectory stops being token-exact. */
const ZTokenBreak = z
  .object({
    kind: z
      .enum(TOKEN_BREAK_KINDS)
      .describe(
        "`prefix-mismatch`: the turn's prompt is not the previous prompt + response followed by new tokens; " +
          "`missing-turn`: turn indices jump; `logprob-count`: the turn has logprobs, but not one per sampled token.",
      ),
    turnIndex: z.number().int().nonnegative().describe("Index of the first turn that breaks the property."),
    position: z
      .number()
      .int()
      .nonnegative()
      .describe(
        "Offset in the flat stream where it breaks: for a prefix mismatch the first differing prompt position, " +
          "else the length of the exact part (`tokens.length`).",
      ),
    expectedId: z
      .number()
      .int()
      .nullable()
      .describe(
        "Token id the stream has at `position` (prefix mismatch only; null at its end or otherwise).",
      ),
    actualId: z
      .number()
      .int()
      .nullable()
      .describe("Token id the breaking turn's prompt has at `position` (null past its end or otherwise)."),
    message: z.string().describe("One sentence saying what broke, for people."),
  })
  .meta({ id: "TokenBreak", description: "The first place a stored trajectory stops being token-exact." });
export type TTokenBreak = z.infer<typeof ZTokenBreak>;

/**
 * One job's trajectory as a trainer feeds it to its loss: the flat token stream exactly as the
 * model saw it, a loss mask over it and the sampled tokens' logprobs aligned to it.
 */
export const ZTrajectoryExport = z
  .object({
    jobId: z.string().describe("The job's id."),
    batchId: z.string().nullable().describe("The batch the job was submitted in, if any."),
    groupId: z.string().nullable().describe("The group (GRPO/DAPO) the job belongs to, if any."),
    kind: z.string().describe("Handler kind of the task (`swe`, `math`, …)."),
    status: ZJobStatus.describe(
      "The job's status when exported; only terminal jobs have a final trajectory.",
    ),
    reward: z
      .number()
      .nullable()
      .describe(
        "The reward of a completed job or an `agent` failure; null for infrastructure failures and running jobs.",
      ),
    trainable: z
      .boolean()
      .nullable()
      .describe(
        "True only for completed jobs and `agent` failures; null while running. Train only on these.",
      ),
    failureKind: ZFailureKind.nullable().describe("Why the job did not complete; null when it did not fail."),
    failureLabel: ZFailureLabel.nullable().describe(
      "What more is known of the failure than its kind: `tampered` = the grader's canary tests reported a false outcome, so the grade was voided (reward 0, trainable); `misconfigured` = the job's own configuration failed (not trainable). Null otherwise.",
    ),
    tokens: z
      .array(z.number().int())
      .describe(
        "The flat token stream: the first turn's prompt ids, then each turn's sampled ids followed by the " +
          "observation and template ids the next prompt appended — exactly the ids the model was given and produced.",
      ),
    lossMask: z
      .array(z.union([z.literal(0), z.literal(1)]))
      .describe(
        "Same length as `tokens`: 1 on model-sampled tokens, 0 on prompt, observation and template tokens.",
      ),
    logprobs: z
      .array(z.number().nullable())
      .describe(
        "Same length as `tokens`: the sampled token's logprob where `lossMask` is 1, null where it is 0 " +
          "(and where the backend returned no logprobs; see `logprobsComplete`).",
      ),
    topLogprobs: z
      .array(z.array(ZTopLogprob).nullable())
      .nullable()
      .optional()
      .describe(
        "Present when the job asked for top-k logprobs (`agent.topLogprobs`): same length as `tokens`, the most likely alternatives at each sampled token (most likely first; the sampled token among them), null where `lossMask` is 0 and on turns stored without them. Absent when no turn has them.",
      ),
    teacherLogprobs: z
      .array(z.number().nullable())
      .optional()
      .describe(
        "Present when the job named a teacher (`agent.teacher`, a step's `teacher`) and it scored the trajectory: same length as `tokens`, the teacher's logprob of each sampled token given every token before it where `lossMask` is 1, null where it is 0 (on-policy distillation). Absent when the teacher is missing; `teacher` says why.",
      ),
    teacher: ZExportedTeacher.optional().describe(
      "Present when the job named a teacher: which one, and whether `teacherLogprobs` are there (and why not).",
    ),
    versions: z
      .array(z.number().int().min(-1))
      .describe(
        "Same length as `tokens`: the policy weight version that sampled each token as an integer (AReaL's `versions`), read from the turns' `weightVersionSpans`; " +
          "-1 where `lossMask` is 0 (prompt, observation and template tokens were not generated) and on sampled tokens whose weight version is null or not a " +
          "non-negative decimal integer (a backend registered with a free-form version such as a checkpoint name). A policy's weight version (`policy.setWeightVersion`, " +
          "`policy.resume`) is stamped on its backends as that integer, so these count the policy's weight updates.",
      ),
    logprobsComplete: z
      .boolean()
      .describe(
        "True when every sampled token has a logprob (false when a backend returned none for a turn).",
      ),
    promptLength: z
      .number()
      .int()
      .nonnegative()
      .describe("Length of the first turn's prompt: `tokens.slice(0, promptLength)` is the task prompt."),
    turns: z
      .array(ZTurnSpan)
      .describe(
        "One span per exported turn, in order: where its sampled tokens sit in `tokens`, and how it was sampled.",
      ),
    turnCount: z
      .number()
      .int()
      .nonnegative()
      .describe(
        "Turns stored for the job; more than `turns.length` only when the stream was cut at a break.",
      ),
    turnRewards: z
      .array(ZExportedTurnReward)
      .describe(
        "Per-step rewards, ordered by turn (a verifier's before a tool's, tool rewards by call): each names its turn and that turn's span `[start, end)` in `tokens`. Empty when the job has none (and for trajectories stored before they were kept). `reward` stays the trajectory's scalar.",
      ),
    tokenExact: z
      .boolean()
      .describe(
        "True when every turn's prompt is the previous turn's prompt + response followed by new ids (token-in/token-out). " +
          "When false, `tokens` stops before the first breaking turn and `tokenBreak` says where.",
      ),
    tokenBreak: ZTokenBreak.nullable().describe(
      "Where the stored trajectory first breaks; null when `tokenExact`.",
    ),
    timings: ZStageTimings.describe("Stage timings in milliseconds: queue, INIT, RUN, EVAL."),
    metadata: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The labels the caller submitted with the job (run name, step, …), unchanged."),
  })
  .meta({
    id: "TrajectoryExport",
    description:
      "One job's trajectory for a training loss: the flat token stream as the model saw it, its loss mask and aligned logprobs.",
  });
export type TTrajectoryExport = z.infer<typeof ZTrajectoryExport>;

/** One page of a batch's exported trajectories. */
export const ZTrajectoryExportPage = z
  .object({
    items: z.array(ZTrajectoryExport).describe("Exported trajectories of this page, newest job first."),
    nextCursor: z
      .string()
      .nullable()
      .describe("Pass as `cursor` to get the next page; null on the last page."),
  })
  .meta({ description: "One page of a batch's exported trajectories." });
export type TTrajectoryExportPage = z.infer<typeof ZTrajectoryExportPage>;
