import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { chooseBenches } from "../targets.bench";
import { writtenFile } from "./bench-child";
import { BENCH_TARGETS, type BenchTarget, type BenchTargets, targetOf } from "./bench-targets";
import {
  describeTarget,
  isTargetMet,
  judgeBench,
  judgeTarget,
  meetsTarget,
  targetsExitCode,
  verdictSummary,
} from "./target-verdict";

const benchDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const atLeast: BenchTarget = { key: "efficiency4", op: ">=", value: 0.9, issue: 11 };
const below: BenchTarget = { key: "p95QueryMs", op: "<", value: 200, issue: 14 };
const equalsKey: BenchTarget = {
  key: "tamperedDetected",
  op: "==",
  value: { key: "forgingAttemptsReachingRun" },
  issue: 30,
};

describe("target verdicts", () => {
  it("compares with each operator, the boundary included only where the operator says so", () => {
    expect(isTargetMet({ op: ">=" }, 0.9, 0.9)).toBe(true);
    expect(isTargetMet({ op: ">=" }, 0.205, 0.9)).toBe(false);
    expect(isTargetMet({ op: "<=" }, 2, 2)).toBe(true);
    expect(isTargetMet({ op: "<=" }, 2.01, 2)).toBe(false);
    expect(isTargetMet({ op: "<" }, 200, 200)).toBe(false);
    expect(isTargetMet({ op: "<" }, 199.9, 200)).toBe(true);
    expect(isTargetMet({ op: "==" }, 0, 0)).toBe(true);
    expect(isTargetMet({ op: "==" }, 1, 0)).toBe(false);
  });

  it("never meets a target with a figure that is not a finite number", () => {
    expect(isTargetMet({ op: "<=" }, Number.NaN, 2)).toBe(false);
    expect(isTargetMet({ op: ">=" }, Number.POSITIVE_INFINITY, 0.9)).toBe(false);
  });

  it("judges a summary figure and says the target as text", () => {
    expect(judgeTarget("scale", atLeast, { efficiency4: 0.958 })).toEqual({
      bench: "scale",
      key: "efficiency4",
      target: ">= 0.9",
      figure: 0.958,
      status: "met",
    });
    expect(judgeTarget("scale", atLeast, { efficiency4: 0.205 }).status).toBe("missed");
    expect(judgeTarget("store", below, { p95QueryMs: 14.5 }).status).toBe("met");
  });

  it("misses a target whose key is absent or whose figure is not a number", () => {
    const absent = judgeTarget("scale", atLeast, { efficiency2: 1 });
    expect(absent).toMatchObject({ status: "missed", figure: "no such summary key" });
    const notRun = judgeTarget("scale", atLeast, { efficiency4: "not run" });
    expect(notRun).toMatchObject({ status: "missed", figure: "not a number: not run" });
    expect(judgeTarget("dapo", { ...atLeast, key: "vsWaitForAll" }, { vsWaitForAll: null }).status).toBe(
      "missed",
    );
  });

  it("compares a figure with another key of the same summary", () => {
    const met = judgeTarget("eval", equalsKey, { tamperedDetected: 12, forgingAttemptsReachingRun: 12 });
    expect(met).toMatchObject({ status: "met", target: "== forgingAttemptsReachingRun (12)" });
    const missed = judgeTarget("eval", equalsKey, { tamperedDetected: 11, forgingAttemptsReachingRun: 12 });
    expect(missed.status).toBe("missed");
    expect(judgeTarget("eval", equalsKey, { tamperedDetected: 0 }).status).toBe("missed");
    expect(() => meetsTarget(equalsKey, 0)).toThrow(/compares two keys/);
  });

  it("misses every target of a bench that failed, and reports a skipped bench as not run", () => {
    const entry: BenchTargets = { bench: "routing", shortArgs: [], targets: [atLeast, below] };
    const failed = judgeBench(entry, { kind: "failed", reason: "bench exited 1: boom" });
    expect(failed.map((v) => [v.status, v.figure])).toEqual([
      ["missed", "bench exited 1: boom"],
      ["missed", "bench exited 1: boom"],
    ]);
    const skipped = judgeBench(entry, { kind: "skipped", reason: "slow: run with --all" });
    expect(skipped.map((v) => v.status)).toEqual(["not run", "not run"]);
  });

  it("exits non-zero on a miss unless only reporting; a target not run is no miss", () => {
    const met = judgeTarget("scale", atLeast, { efficiency4: 0.95 });
    const missed = judgeTarget("scale", atLeast, { efficiency4: 0.2 });
    const notRun = judgeBench(
      { bench: "soak", shortArgs: [], targets: [atLeast] },
      { kind: "skipped", reason: "slow" },
    );
    expect(targetsExitCode([met, ...notRun], false)).toBe(0);
    expect(targetsExitCode([met, missed], false)).toBe(1);
    expect(targetsExitCode([met, missed], true)).toBe(0);
    expect(verdictSummary([met, missed, ...notRun])).toMatchObject({
      targets: 3,
      met: 1,
      missed: 1,
      notRun: 1,
      allMet: false,
      missedKeys: "scale efficiency4",
    });
    expect(verdictSummary([met, ...notRun])).toMatchObject({ allMet: true, missedKeys: "none" });
    expect(verdictSummary(notRun).allMet).toBe(false);
  });

  it("formats fractions short", () => {
    expect(describeTarget({ key: "raas / tmux (true)", op: "<=", value: 1 / 3, issue: 4 })).toBe("<= 0.333");
  });
});

describe("the declared target table", () => {
  it("names each bench once, each with a bench file, targets and unique keys", () => {
    const names = BENCH_TARGETS.map((entry) => entry.bench);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of BENCH_TARGETS) {
      expect(existsSync(join(benchDir, `${entry.bench}.bench.ts`)), entry.bench).toBe(true);
      expect(entry.targets.length, entry.bench).toBeGreaterThan(0);
      const keys = entry.targets.map((t) => t.key);
      expect(new Set(keys).size, entry.bench).toBe(keys.length);
    }
  });

  it("agrees with a key that states its own threshold", () => {
    for (const entry of BENCH_TARGETS)
      for (const target of entry.targets) {
        const stated = /\(target (>=|<=|<|==) ([\d.]+)\)/.exec(target.key);
        if (stated) expect(`${stated[1]} ${stated[2]}`, target.key).toBe(describeTarget(target));
      }
  });

  it("finds a declared target and refuses an undeclared one", () => {
    expect(targetOf("scale", "efficiency4").value).toBe(0.9);
    expect(() => targetOf("scale", "efficiency5")).toThrow(/no target declared for scale "efficiency5"/);
  });
});

describe("choosing and running benches", () => {
  it("runs the fast benches by default, all with --all, and the named ones with --only", () => {
    const fast = chooseBenches(undefined, false).map((entry) => entry.bench);
    expect(fast).toContain("scale");
    expect(fast).not.toContain("chaos");
    expect(chooseBenches(undefined, true)).toHaveLength(BENCH_TARGETS.length);
    expect(chooseBenches("soak,pipeline", false).map((entry) => entry.bench)).toEqual(["pipeline", "soak"]);
    expect(() => chooseBenches("pipline", false)).toThrow(/no targets declared for pipline/);
  });

  it("reads the results file from the last line a bench printed", () => {
    const output = "# bench scale\nsummary:\n  efficiency4: 0.9\n\nwrote /tmp/results/scale-1.json\n";
    expect(writtenFile(output)).toBe("/tmp/results/scale-1.json");
    expect(writtenFile("# bench scale\nError: boom\n")).toBeNull();
  });
});
