import type { SandboxExecResult } from "@raas/engine";
import type { TTurnReward } from "@raas/shared";
import { parseTurnRewards } from "../base/verifier-turn-rewards";

/**
 * How a run of the verifier ended. `scored`: compute_score returned a usable score;
 * `exception_means_wrong`: it raised on the policy's output and the environment declares that a
 * wrong answer (reward 0); `exception`: it raised, and that is the verifier's failure;
 * `setup_failed`: verify.py could not be imported or called; `bad_score`: it returned something
 * that is not a score; `crashed`: the process ended without reporting; `timed_out`: the limit ended it.
 */
type TVerifierStatus =
  | "scored"
  | "exception_means_wrong"
  | "exception"
  | "setup_failed"
  | "bad_score"
  | "crashed"
  | "timed_out";

/** What the job's result records of one verifier run (`result.verifier`, or a failed job's `result.verifier`). */
interface VerifierReport {
  status: TVerifierStatus;
  /**
   * The verifier gave no score of its own: every status but `scored`. Counted per job so that a
   * policy learning to crash (or hang) its verifier shows, whether the crash was infrastructure or,
   * under `exceptionMeansWrong`, a wrong answer.
   */
  crashed: boolean;
  /** The score compute_score returned (a float, or a dict's `score`); null when none. */
  score: number | null;
  /** The other keys of a returned dict, kept as they were (JSON-safe copies). */
  details: Record<string, unknown>;
  /** The exception or setup error, `Type: message`; null when none. */
  error: string | null;
  /** The last 4 KiB of the verifier's stderr (where its prints go too). */
  stderrTail: string;
  durationMs: number;
}

/** The verifier's decision: a reward, or an infrastructure failure of kind `timeout` or `eval`. */
export type RewardVerdict =
  | { type: "reward"; reward: number; report: VerifierReport; turnRewards: TTurnReward[] }
  | { type: "failure"; kind: "timeout" | "eval"; message: string; report: VerifierReport };

const FRAME = "RAAS-REWARD ";
const TAIL_BYTES = 4096;

interface RunnerDoc {
  status?: unknown;
  value?: unknown;
  /** A returned dict's `turn_rewards`, sent whole beside `value`; null when it had none. */
  turn_rewards?: unknown;
  error?: unknown;
}

/** The runner's result lines (`RAAS-REWARD <nonce> <base64 JSON>`); other lines are not its. */
function framesOf(stdout: string, nonce: string): RunnerDoc[] {
  const prefix = `${FRAME}${nonce} `;
  const docs: RunnerDoc[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith(prefix)) continue;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(line.slice(prefix.length), "base64").toString("utf8"));
      docs.push(typeof parsed === "object" && parsed !== null ? (parsed as RunnerDoc) : {});
    } catch {
      docs.push({});
    }
  }
  return docs;
}

/** A number, a bool, or a dict whose `score` is one; the rest of the dict is kept. */
function scoreOf(value: unknown): { score: number; details: Record<string, unknown> } | string {
  if (typeof value === "boolean") return { score: value ? 1 : 0, details: {} };
  if (typeof value === "number") {
    return Number.isFinite(value) ? { score: value, details: {} } : `a non-finite score (${value})`;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const { score, ...details } = value as Record<string, unknown>;
    const inner = typeof score === "boolean" ? (score ? 1 : 0) : score;
    if (typeof inner === "number" && Number.isFinite(inner)) return { score: inner, details };
    return `a dict whose "score" is ${score === undefined ? "missing" : JSON.stringify(score)}`;
  }
  if (typeof value === "string")
    return `a string (${JSON.stringify(value.slice(0, 80))}), which is not a score`;
  return `${JSON.stringify(value)?.slice(0, 80) ?? String(value)}, which is not a score`;
}

const clip = (text: string) => (text.length <= TAIL_BYTES ? text : `…${text.slice(-TAIL_BYTES)}`);

/**
 * Reads one run of the verifier runner (`REWARD_RUNNER_PY`): only a line carrying this run's nonce
 * counts, and exactly one must be there. What the policy's text makes verify.py print goes to
 * stderr, and even on stdout it could not carry the nonce. Pure.
 *
 * A time-out is `timeout` and every other way the verifier gives no score is `eval` — both
 * infrastructure, never reward 0 — except an exception compute_score raised when the environment
 * declares `exceptionMeansWrong`: then the answer is wrong (reward 0). The report says which.
 */
export function decideRewardVerdict(
  run: Pick<SandboxExecResult, "stdout" | "stderr" | "exitCode" | "signal" | "timedOut" | "durationMs">,
  nonce: string,
  options: { exceptionMeansWrong: boolean; timeLimitMs: number },
): RewardVerdict {
  const report = (status: TVerifierStatus, extra: Partial<VerifierReport> = {}): VerifierReport => ({
    status,
    crashed: status !== "scored",
    score: null,
    details: {},
    error: null,
    stderrTail: clip(run.stderr),
    durationMs: Math.round(run.durationMs),
    ...extra,
  });
  const fail = (kind: "timeout" | "eval", status: TVerifierStatus, message: string, extra = {}) =>
    ({ type: "failure", kind, message, report: report(status, extra) }) as const;
  if (run.timedOut) {
    return fail("timeout", "timed_out", `the verifier ran past its limit of ${options.timeLimitMs} ms`);
  }
  const frames = framesOf(run.stdout, nonce);
  if (frames.length !== 1) {
    const how = run.signal ? `signal ${run.signal}` : `exit ${run.exitCode}`;
    const what = frames.length === 0 ? `ended without a result (${how})` : "wrote more than one result";
    return fail("eval", "crashed", `the verifier ${what}: ${run.stderr.slice(-400)}`);
  }
  const doc = frames[0] as RunnerDoc;
  const error = typeof doc.error === "string" ? doc.error : null;
  switch (doc.status) {
    case "scored": {
      const score = scoreOf(doc.value);
      if (typeof score === "string") {
        return fail("eval", "bad_score", `compute_score returned ${score}`, { error: score });
      }
      const perTurn = doc.turn_rewards ?? null;
      const turnRewards = perTurn === null ? [] : parseTurnRewards(perTurn, "compute_score's turn_rewards");
      if (typeof turnRewards === "string") {
        return fail("eval", "bad_score", turnRewards, { error: turnRewards });
      }
      return { type: "reward", reward: score.score, report: report("scored", score), turnRewards };
    }
    case "exception":
      if (options.exceptionMeansWrong) {
        return {
          type: "reward",
          reward: 0,
          report: report("exception_means_wrong", { score: 0, error }),
          turnRewards: [],
        };
      }
      return fail("eval", "exception", `compute_score raised ${error ?? "an exception"}`, { error });
    case "setup":
      return fail("eval", "setup_failed", `the verifier could not run: ${error ?? "unknown error"}`, {
        error,
      });
    default:
      return fail("eval", "crashed", "the verifier's result line is unreadable");
  }
}
