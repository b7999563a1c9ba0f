import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TCodePayload } from "../../src/code/code-handler";
import { runHiddenTests } from "../../src/code/hidden-tests";
import { codeUnittestForgeries } from "../../src/testing/forgery-corpus";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

const SUITE: TCodePayload["tests"] = {
  kind: "unittest",
  code: "import unittest\nfrom solution import double\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(double(3), 6)\n\n    def test_b(self):\n        self.assertEqual(double(-4), -8)\n\n\nif __name__ == '__main__':\n    unittest.main()\n",
  timeLimitMs: 10_000,
};

/**
 * The solution runs inside the unittest suite's process, so it can rewrite what that process
 * reports. Canaries planted in the hidden module (names it cannot predict, outcomes the grader
 * knows) catch every such forgery; honest solutions, right or wrong, never trip them.
 */
describe("canaries in a code task's unittest suite (real bubblewrap)", { timeout: 120_000 }, () => {
  let runtime: BubblewrapRuntime;
  let baseDir: string;
  beforeAll(() => {
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("code grading tests need bubblewrap: apt-get install -y bubblewrap");
    baseDir = mkdtempSync(join(tmpdir(), "raas-code-forgery-"));
    runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });
  });
  afterAll(async () => {
    await runtime.closeAll();
    rmSync(baseDir, { recursive: true, force: true });
  });

  const grade = (solution: string) =>
    runHiddenTests({
      openSandbox: (spec = {}) => runtime.create(spec),
      solutionPath: "solution.py",
      solution,
      tests: SUITE,
      signal: new AbortController().signal,
    });

  it("plants at least three canaries and keeps them out of the graded cases", async () => {
    const honest = await grade("def double(x):\n    return 2 * x\n");
    expect(honest.cases.map((c) => [c.name, c.status])).toEqual([
      ["test_hidden.T.test_a", "passed"],
      ["test_hidden.T.test_b", "passed"],
    ]);
    expect(honest.canaries).toMatchObject({ hosts: ["test_hidden"], unreached: [], lies: [] });
    expect(honest.canaries?.planted).toBeGreaterThanOrEqual(3);
    const wrong = await grade("def double(x):\n    return x\n");
    expect(wrong.cases.map((c) => c.status)).toEqual(["failed", "failed"]);
    expect(wrong.canaries?.lies).toEqual([]);
  });

  it("does not call a solution that breaks its own import a forgery", async () => {
    const broken = await grade("raise RuntimeError('no')\n");
    expect(broken.cases.map((c) => c.status)).toEqual(["error"]);
    expect(broken.canaries).toMatchObject({ unreached: ["test_hidden"], lies: [] });
    const exits = await grade("import os\nos._exit(0)\n");
    expect(exits.cases.map((c) => c.status)).toEqual(["error"]);
    expect(exits.canaries?.lies).toEqual([]);
  });

  for (const forgery of codeUnittestForgeries()) {
    it.concurrent(`catches a solution that ${forgery.name}`, async () => {
      const outcome = await grade(forgery.source);
      // Without the canaries this would have been reward 1: every graded case reads "passed".
      expect(outcome.cases.map((c) => c.status)).toEqual(["passed", "passed"]);
      expect(outcome.canaries?.lies.length, JSON.stringify(outcome)).toBeGreaterThan(0);
      // Which canary lied, and how: a must-fail or must-error canary reported passed, or a missing one.
      for (const lie of outcome.canaries?.lies ?? []) {
        expect(lie.canary).toMatch(/^test_hidden\.\w+\.test_\w+$/);
        expect(lie.reported === null || lie.reported !== lie.expected).toBe(true);
      }
    });
  }
});
