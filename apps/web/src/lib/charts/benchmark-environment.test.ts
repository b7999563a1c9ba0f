import { describe, expect, it } from "vitest";
import { formatReward, runEnvironment, showsSweBench } from "./benchmark-environment";

const swe = { config: { concurrency: 8 } };
const env = {
  config: { backend: "http://b", environment: { name: "math-verify", kind: "reward-fn", path: "/e" } },
};

describe("runEnvironment", () => {
  it("reads config.environment of an environment run; null for SWE-bench runs and odd configs", () => {
    expect(runEnvironment(env)).toEqual({ name: "math-verify", kind: "reward-fn" });
    expect(runEnvironment(swe)).toBeNull();
    expect(runEnvironment({ config: null })).toBeNull();
    expect(runEnvironment({ config: { environment: "math-verify" } })).toBeNull();
    expect(runEnvironment({ config: { environment: { name: "x" } } })).toBeNull();
  });
});

describe("showsSweBench", () => {
  it("keeps SWE-bench's material beside SWE runs, and before any run; not for environment runs alone", () => {
    expect(showsSweBench([])).toBe(true);
    expect(showsSweBench([env, swe])).toBe(true);
    expect(showsSweBench([env])).toBe(false);
  });
});

describe("formatReward", () => {
  it("shows three decimals at most, and a dash for no reward", () => {
    expect([formatReward(2 / 3), formatReward(1), formatReward(0), formatReward(null)]).toEqual([
      "0.667",
      "1",
      "0",
      "—",
    ]);
  });
});
