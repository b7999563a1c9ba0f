/** What the verifier's reward files said. */
export interface HarborReward {
  /** The job's scalar reward: reward.txt's number, or reward.json's `reward` (or its only key). */
  reward: number;
  /** Every key of reward.json (or `{ reward }` from reward.txt), kept. */
  rewards: Record<string, number>;
  source: "reward.txt" | "reward.json";
}

/**
 * Reads `/logs/verifier/reward.json` (preferred when both exist, as Harbor does) or `reward.txt`.
 * Returns a reason string when neither holds a usable reward: a verifier that wrote nothing, or
 * something that is not a finite number, has failed — it says nothing about the policy.
 */
export function parseHarborReward(files: { txt: string | null; json: string | null }): HarborReward | string {
  if (files.json !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(files.json);
    } catch {
      return "reward.json is not valid JSON";
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return "reward.json is not an object of named rewards";
    const rewards: Record<string, number> = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value !== "number" || !Number.isFinite(value))
        return `reward.json key ${JSON.stringify(key)} is not a finite number`;
      rewards[key] = value;
    }
    const keys = Object.keys(rewards);
    if (keys.length === 0) return "reward.json has no keys";
    const scalarKey = "reward" in rewards ? "reward" : keys.length === 1 ? keys[0] : undefined;
    if (scalarKey === undefined)
      return `reward.json has several keys (${keys.join(", ")}) and none is named "reward"`;
    return { reward: rewards[scalarKey] as number, rewards, source: "reward.json" };
  }
  if (files.txt !== null) {
    const text = files.txt.trim();
    const reward = text === "" ? Number.NaN : Number(text);
    if (!Number.isFinite(reward))
      return `reward.txt holds ${JSON.stringify(text.slice(0, 40))}, not a number`;
    return { reward, rewards: { reward }, source: "reward.txt" };
  }
  return "the verifier wrote neither /logs/verifier/reward.txt nor reward.json";
}
