import type { JudgeMessage } from "./judge-model.types";
import type { JudgeScale } from "./judge-prompt";

/**
 * How grading by the judge ended. `scored`: the reply's last line gave a score in range;
 * `unparseable`: it gave none in the documented format; `out_of_range`: the score lies outside the
 * rubric's scale; `call_failed`: no judge backend answered (down, 5xx, a bad body, none
 * configured); `timed_out`: the judge ran past its time limit.
 */
type TJudgeStatus = "scored" | "unparseable" | "out_of_range" | "call_failed" | "timed_out";

/** What the job's result records of the judging (`result.verifier`, on a failed job too). */
interface JudgeReport {
  type: "judge";
  status: TJudgeStatus;
  /** The judge gave no grade (every status but `scored`): counted per step as a verifier crash. */
  crashed: boolean;
  /** The judge model that answered (null when none did). */
  model: string | null;
  backendId: string | null;
  /** The judge's chat, the policy's answer inside it. */
  prompt: JudgeMessage[];
  /** The judge's reply (null when none came). */
  reply: string | null;
  /** The score the reply gave, on the rubric's scale; null when none was read. */
  score: number | null;
  scale: JudgeScale;
  /** Why there is no grade; null when scored. */
  error: string | null;
  durationMs: number;
}

/** What came back from the judge call. */
export type JudgeCallOutcome =
  | { type: "reply"; text: string; model: string; backendId: string; durationMs: number }
  | { type: "error"; isTimeout: boolean; message: string; backendId: string | null; durationMs: number };

/** The reward (the score normalised to [0, 1]), or an infrastructure failure: never a reward of 0. */
export type JudgeVerdict =
  | { type: "reward"; reward: number; report: JudgeReport }
  | { type: "failure"; kind: "eval" | "timeout"; message: string; report: JudgeReport };

type ScoreReading =
  | { type: "score"; score: number }
  | { type: "unparseable"; reason: string }
  | { type: "out_of_range"; score: number };

const SCORE_LINE = /^SCORE\s*:\s*([+-]?\d+(?:\.\d+)?)(?:\s*\/\s*(\d+(?:\.\d+)?))?$/i;

/**
 * Reads the score from a judge's reply: its last non-empty line must be `SCORE: <number>`
 * (optionally `/ <max>`, optionally in `**` or backticks). Only that line counts: a `SCORE:` line
 * earlier in the reply (a judge quoting the answer, say) is not the grade. Pure.
 */
export function readJudgeScore(reply: string, scale: JudgeScale): ScoreReading {
  const lines = reply.split("\n").map((line) => line.trim());
  const last = lines.filter((line) => line !== "").at(-1);
  if (last === undefined) return { type: "unparseable", reason: "the reply is empty" };
  const bare = last.replace(/^[*`_]+|[*`_]+$/g, "").trim();
  const match = SCORE_LINE.exec(bare);
  if (!match) {
    return {
      type: "unparseable",
      reason: `the reply's last line is not "SCORE: <number>": ${JSON.stringify(last.slice(0, 120))}`,
    };
  }
  const score = Number(match[1]);
  if (match[2] !== undefined && Number(match[2]) !== scale.max) {
    return {
      type: "unparseable",
      reason: `the score is out of ${match[2]}, the rubric's scale ends at ${scale.max}`,
    };
  }
  if (!Number.isFinite(score)) return { type: "unparseable", reason: "the score is not a finite number" };
  if (score < scale.min || score > scale.max) return { type: "out_of_range", score };
  return { type: "score", score };
}

/**
 * The grade of one judge call: the reply's score normalised to [0, 1] over the rubric's scale, or
 * — when the call failed or the reply gives no score in range — an infrastructure failure (`eval`,
 * or `timeout` past the time limit). A judge that cannot grade never hands the policy a 0. Pure.
 */
export function decideJudgeVerdict(
  call: JudgeCallOutcome,
  context: { prompt: JudgeMessage[]; scale: JudgeScale },
): JudgeVerdict {
  const base = {
    type: "judge" as const,
    prompt: context.prompt,
    scale: context.scale,
    durationMs: Math.round(call.durationMs),
  };
  if (call.type === "error") {
    const status = call.isTimeout ? "timed_out" : "call_failed";
    const report: JudgeReport = {
      ...base,
      status,
      crashed: true,
      model: null,
      backendId: call.backendId,
      reply: null,
      score: null,
      error: call.message,
    };
    const kind = call.isTimeout ? "timeout" : "eval";
    return { type: "failure", kind, message: `the judge call failed: ${call.message}`, report };
  }
  const answered = { ...base, model: call.model, backendId: call.backendId, reply: call.text };
  const reading = readJudgeScore(call.text, context.scale);
  switch (reading.type) {
    case "score": {
      const { min, max } = context.scale;
      const reward = (reading.score - min) / (max - min);
      const report: JudgeReport = {
        ...answered,
        status: "scored",
        crashed: false,
        score: reading.score,
        error: null,
      };
      return { type: "reward", reward, report };
    }
    case "out_of_range": {
      const error = `the judge's score ${reading.score} lies outside ${context.scale.min}..${context.scale.max}`;
      const report: JudgeReport = {
        ...answered,
        status: "out_of_range",
        crashed: true,
        score: reading.score,
        error,
      };
      return { type: "failure", kind: "eval", message: error, report };
    }
    case "unparseable": {
      const report: JudgeReport = {
        ...answered,
        status: "unparseable",
        crashed: true,
        score: null,
        error: reading.reason,
      };
      return {
        type: "failure",
        kind: "eval",
        message: `the judge's reply gave no score: ${reading.reason}`,
        report,
      };
    }
  }
}
