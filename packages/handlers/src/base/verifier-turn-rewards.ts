import type { AgentLoopResult } from "@raas/engine";
import { formatIssues, stageFailure, type TTurnReward, ZTurnRewards } from "@raas/shared";

/**
 * What a verifier sees of the trajectory, to attach rewards to turns: one entry per model turn
 * (`turn` is the index its rewards name), the visible text and the tool calls it made. snake_case,
 * for Python verifiers (`/logs/agent/turns.json` of a Harbor task, verify.py's `turns`).
 */
export interface VerifierTurn {
  turn: number;
  content: string;
  tool_calls: { name: string; arguments: Record<string, unknown> }[];
}

export function verifierTurnsOf(loop: Pick<AgentLoopResult, "turns">): VerifierTurn[] {
  return loop.turns.map((turn) => ({
    turn: turn.index,
    content: turn.content,
    tool_calls: turn.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })),
  }));
}

/**
 * A verifier's `turn_rewards` value read through `ZTurnRewards`; a reason string when it is
 * malformed (`where` names the file or function), for the caller to fail the verifier with.
 */
export function parseTurnRewards(value: unknown, where: string): TTurnReward[] | string {
  const parsed = ZTurnRewards.safeParse(value);
  if (parsed.success) return parsed.data;
  return `${where} is malformed: ${formatIssues(parsed.error.issues, { prefix: ["turn_rewards"] })}`;
}

/**
 * Throws an `eval` failure (infrastructure: the verifier's error, never the policy's) when a turn
 * reward names a turn the trajectory does not have; nothing is dropped silently.
 */
export function checkTurnRewardRange(
  turnRewards: readonly TTurnReward[],
  turnCount: number,
  /** The verifier's report, kept as the failed job's `result`. */
  result?: unknown,
): void {
  const outside = turnRewards.find((entry) => entry.turn >= turnCount);
  if (outside === undefined) return;
  const range =
    turnCount === 0
      ? "no turns"
      : turnCount === 1
        ? "1 turn (0)"
        : `${turnCount} turns (0 to ${turnCount - 1})`;
  throw stageFailure(
    "eval",
    `the verifier gave a reward to turn ${outside.turn}, but the trajectory has ${range}`,
    result === undefined ? undefined : { result },
  );
}
