/** What one job of an oracle check ended with. */
export interface OracleJobOutcome {
  /** `completed`, `failed` or `cancelled`. */
  status: string;
  /** The job's reward; null when it failed for infrastructure (or has none). */
  reward: number | null;
  /** The failure's kind and message when it failed, else null. */
  failure: { kind: string; message: string } | null;
}

/** `pass`: the oracle earned full reward and the no-op none. */
export type OracleVerdict = "pass" | "fail" | "skipped";

/** The reward a reference solution must earn by default: full. */
const FULL_REWARD = 1;

/**
 * The verdict of one task: `pass` when the reference solution completed with reward ≥
 * `oracleMinReward` (default 1; a judge environment's pass threshold, since a judge grades a
 * reference answer near the top rather than exactly at it) and doing nothing completed with reward ≤ 0; `skipped` when the task has no reference solution or cannot
 * run here (then only the reason is given); otherwise `fail`, with the reasons. A failed job (the
 * verifier crashed or timed out) fails the check: a reward that cannot be computed is not 0.
 */
export function judgeOracleCheck(input: {
  oracle: OracleJobOutcome | null;
  noop: OracleJobOutcome | null;
  skipReason?: string | null;
  /** The least reward the reference solution must earn. Default 1. */
  oracleMinReward?: number;
}): { verdict: OracleVerdict; reasons: string[] } {
  if (input.skipReason) return { verdict: "skipped", reasons: [input.skipReason] };
  const reasons: string[] = [];
  const describe = (what: string, outcome: OracleJobOutcome | null, expected: string) => {
    if (outcome === null) return `${what}: not run`;
    if (outcome.status !== "completed")
      return `${what}: ${outcome.status}${outcome.failure ? ` (${outcome.failure.kind}: ${outcome.failure.message})` : ""}`;
    return `${what}: reward ${outcome.reward}, expected ${expected}`;
  };
  const { oracle, noop } = input;
  const least = input.oracleMinReward ?? FULL_REWARD;
  if (!(oracle?.status === "completed" && oracle.reward !== null && oracle.reward >= least))
    reasons.push(describe("oracle", oracle, least >= FULL_REWARD ? `${least}` : `at least ${least}`));
  if (!(noop?.status === "completed" && noop.reward !== null && noop.reward <= 0))
    reasons.push(describe("no-op", noop, "0"));
  return { verdict: reasons.length === 0 ? "pass" : "fail", reasons };
}
