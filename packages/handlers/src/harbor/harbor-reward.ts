import type { TTurnReward } from "@raas/shared";
import { parseTurnRewards } from "../base/verifier-turn-rewards";

/** The key of reward.json that holds per-turn rewards, not a named scalar reward. */
const HARBOR_TURN_REWARDS_KEY = "turn_rewards";

/** What the verifier's reward files said. */
export interface HarborReward {
  /** The job's scalar reward: reward.txt's number, or reward.json's `reward` (or its only key). */
  reward: number;
  /** Every numeric key of reward.json (or `{ reward }` from reward.txt), kept. */
  rewards: Record<string, number>;
  /**
   * reward.json's `turn_rewards`: `[{ "turn": 2, "reward": 0.5, "label": "…" }]`, each naming a
   * turn of the trajectory (`/logs/agent/turns.json`); empty when absent (and for reward.txt).
   */
  turnRewards: TTurnReward[];
  source: "reward.txt" | "reward.json";
}

/** reward.json read: its named scalar rewards and its per-turn ones, or a reason it is unusable. */
function parseRewardJson(text: string): HarborReward | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "reward.json is not valid JSON";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return "reward.json is not an object of named rewards";
  const { [HARBOR_TURN_REWARDS_KEY]: perTurn, ...named } = parsed as Record<string, unknown>;
  const turnRewards = perTurn === undefined ? [] : parseTurnRewards(perTurn, "reward.json turn_rewards");
  if (typeof turnRewards === "string") return turnRewards;
  const rewards: Record<string, number> = {};
  for (const [key, value] of Object.entries(named)) {
    if (typeof value !== "number" || !Number.isFinite(value))
      return `reward.json key ${JSON.stringify(key)} is not a finite number`;
    rewards[key] = value;
  }
  const keys = Object.keys(rewards);
  if (keys.length === 0) return "reward.json has no keys";
  const scalarKey = "reward" in rewards ? "reward" : keys.length === 1 ? keys[0] : undefined;
  if (scalarKey === undefined)
    return `reward.json has several keys (${keys.join(", ")}) and none is named "reward"`;
  return { reward: rewards[scalarKey] as number, rewards, turnRewards, source: "reward.json" };
}

/**
 * Reads `/logs/verifier/reward.json` (preferred when both exist, as Harbor does) or `reward.txt`.
 * Returns a reason string when neither holds a usable reward: a verifier that wrote nothing, or
 * something that is not a finite number (or malformed `turn_rewards`), has failed — it says
 * nothing about the policy.
 */
export function parseHarborReward(files: { txt: string | null; json: string | null }): HarborReward | string {
  if (files.json !== null) return parseRewardJson(files.json);
  if (files.txt !== null) {
    const text = files.txt.trim();
    const reward = text === "" ? Number.NaN : Number(text);
    if (!Number.isFinite(reward))
      return `reward.txt holds ${JSON.stringify(text.slice(0, 40))}, not a number`;
    return { reward, rewards: { reward }, turnRewards: [], source: "reward.txt" };
  }
  return "the verifier wrote neither /logs/verifier/reward.txt nor reward.json";
}
