import { describe, expect, it } from "vitest";
import type { Canary, ReportedOutcome } from "./canary.types";
import { checkCanaries, describeLies } from "./canary-verdict";

const HOST = "tests/test_a.py";
const canaries: Canary[] = [
  { id: `${HOST}::test_p`, expect: "passed", host: HOST },
  { id: `${HOST}::test_f`, expect: "failed", host: HOST },
  { id: `${HOST}::test_e`, expect: "error", host: HOST },
];
const graded = new Map([[HOST, [`${HOST}::test_real`]]]);

function check(outcomes: Record<string, ReportedOutcome>, timedOut = false, plantedHosts = [HOST]) {
  return checkCanaries({
    canaries,
    plantedHosts,
    outcomes: new Map(Object.entries(outcomes)),
    gradedTestsByHost: graded,
    timedOut,
  });
}

const truthful = {
  [`${HOST}::test_p`]: "passed",
  [`${HOST}::test_f`]: "failed",
  [`${HOST}::test_e`]: "error",
} as const;

describe("checkCanaries", () => {
  it("finds no lie when every canary reports its true outcome", () => {
    expect(check({ ...truthful, [`${HOST}::test_real`]: "failed" })).toEqual({
      planted: 3,
      hosts: [HOST],
      unreached: [],
      lies: [],
    });
  });

  it("names each canary reported with a false outcome", () => {
    const result = check({ ...truthful, [`${HOST}::test_f`]: "passed", [`${HOST}::test_e`]: "xfail" });
    expect(result.lies).toEqual([
      { canary: `${HOST}::test_f`, expected: "failed", reported: "passed" },
      { canary: `${HOST}::test_e`, expected: "error", reported: "xfail" },
    ]);
    expect(describeLies(result.lies)).toMatch(/test_f \(must fail\) was reported passed/);
  });

  it("calls a canary missing from a host the run reached a lie, unless the run hit its time limit", () => {
    const outcomes = { [`${HOST}::test_real`]: "passed", [`${HOST}::test_p`]: "passed" } as const;
    expect(check(outcomes).lies.map((lie) => [lie.canary, lie.reported])).toEqual([
      [`${HOST}::test_f`, null],
      [`${HOST}::test_e`, null],
    ]);
    expect(check(outcomes, true).lies).toEqual([]);
    // A false outcome still counts after a timeout.
    expect(check({ ...outcomes, [`${HOST}::test_f`]: "passed" }, true).lies).toHaveLength(1);
  });

  it("treats a host nothing reported, or whose canaries all errored or skipped alike, as unreached", () => {
    expect(check({})).toMatchObject({ unreached: [HOST], lies: [] });
    const allError = Object.fromEntries(canaries.map((c) => [c.id, "error" as const]));
    expect(check({ ...allError, [`${HOST}::test_real`]: "error" })).toMatchObject({
      unreached: [HOST],
      lies: [],
    });
    const allSkipped = Object.fromEntries(canaries.map((c) => [c.id, "skipped" as const]));
    expect(check(allSkipped)).toMatchObject({ unreached: [HOST], lies: [] });
    // Passed alike is no breakage: the must-fail and must-error canaries lied.
    const allPassed = Object.fromEntries(canaries.map((c) => [c.id, "passed" as const]));
    expect(check(allPassed).lies).toHaveLength(2);
  });

  it("judges only the hosts that were planted", () => {
    expect(check({ [`${HOST}::test_real`]: "passed" }, false, [])).toEqual({
      planted: 0,
      hosts: [],
      unreached: [],
      lies: [],
    });
  });
});
