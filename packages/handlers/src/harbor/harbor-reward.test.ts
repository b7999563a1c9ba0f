import { describe, expect, it } from "vitest";
import { parseHarborReward } from "./harbor-reward";

describe("parseHarborReward", () => {
  it("reads reward.txt as one number", () => {
    expect(parseHarborReward({ txt: " 0.75\n", json: null })).toEqual({
      reward: 0.75,
      rewards: { reward: 0.75 },
      source: "reward.txt",
    });
  });

  it("prefers reward.json and keeps every key", () => {
    expect(parseHarborReward({ txt: "0", json: '{"reward": 1, "style": 0.5, "tests": 1}' })).toEqual({
      reward: 1,
      rewards: { reward: 1, style: 0.5, tests: 1 },
      source: "reward.json",
    });
    expect(parseHarborReward({ txt: null, json: '{"accuracy": 0.25}' })).toMatchObject({ reward: 0.25 });
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
  ])("refuses %j", (files, reason) => {
    const parsed = parseHarborReward(files);
    expect(typeof parsed).toBe("string");
    expect(parsed).toContain(reason);
  });
});
