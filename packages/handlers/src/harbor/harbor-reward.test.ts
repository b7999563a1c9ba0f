import { describe, expect, it } from "vitest";
import { parseHarborReward } from "./harbor-reward";

describe("parseHarborReward", () => {
  it("reads reward.txt as one number", () => {
    expect(parseHarborReward({ txt: " 0.75\n", json: null })).toEqual({
      reward: 0.75,
      rewards: { reward: 0.75 },
      turnRewards: [],
      source: "reward.txt",
    });
  });

  it("prefers reward.json and keeps every key", () => {
    expect(parseHarborReward({ txt: "0", json: '{"reward": 1, "style": 0.5, "tests": 1}' })).toEqual({
      reward: 1,
      rewards: { reward: 1, style: 0.5, tests: 1 },
      turnRewards: [],
      source: "reward.json",
    });
    expect(parseHarborReward({ txt: null, json: '{"accuracy": 0.25}' })).toMatchObject({ reward: 0.25 });
  });

  it("takes turn_rewards out of the named rewards, labels defaulting to null", () => {
    const json = JSON.stringify({
      reward: 1,
      tests: 0.5,
      turn_rewards: [
        { turn: 2, reward: 0.5, label: "found the bug" },
        { turn: 0, reward: -0.25 },
      ],
    });
    expect(parseHarborReward({ txt: null, json })).toEqual({
      reward: 1,
      rewards: { reward: 1, tests: 0.5 },
      turnRewards: [
        { turn: 2, reward: 0.5, label: "found the bug" },
        { turn: 0, reward: -0.25, label: null },
      ],
      source: "reward.json",
    });
  });

  it.each([
    [{ txt: null, json: null }, "neither"],
    [{ txt: "", json: null }, "not a number"],
    [{ txt: "pass", json: null }, "not a number"],
    [{ txt: "NaN", json: null }, "not a number"],
    [{ txt: null, json: "[1]" }, "not an object"],
    [{ txt: null, json: "{" }, "not valid JSON"],
    [{ txt: null, json: '{"a": 1, "b": 0}' }, 'none is named "reward"'],
    [{ txt: null, json: '{"reward": "1"}' }, "not a finite number"],
    [{ txt: null, json: "{}" }, "no keys"],
    [{ txt: null, json: '{"reward": 1, "turn_rewards": {"0": 1}}' }, "turn_rewards: expected array"],
    [
      { txt: null, json: '{"reward": 1, "turn_rewards": [{"turn": -1, "reward": 1}]}' },
      "turn_rewards[0].turn",
    ],
    [
      { txt: null, json: '{"reward": 1, "turn_rewards": [{"turn": 0, "reward": "1"}]}' },
      "turn_rewards[0].reward",
    ],
    [{ txt: null, json: '{"reward": 1, "turn_rewards": [{"turn": 0, "reward": 1, "step": 2}]}' }, "step"],
    [{ txt: null, json: '{"turn_rewards": [{"turn": 0, "reward": 1}]}' }, "no keys"],
  ])("refuses %j", (files, reason) => {
    const parsed = parseHarborReward(files);
    expect(typeof parsed).toBe("string");
    expect(parsed).toContain(reason);
  });
});
