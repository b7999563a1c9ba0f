import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TCodePayload } from "../../src/code/code-handler";
import { runHiddenTests } from "../../src/code/hidden-tests";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * Red team for code grading: the solution is the attacker. Every test runs real bubblewrap
 * sandboxes and asserts the verdict the host computes.
 */
describe("hidden-test grading a solution cannot influence", () => {
  let runtime: BubblewrapRuntime;
  let baseDir: string;
  beforeAll(() => {
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("code grading tests need bubblewrap: apt-get install -y bubblewrap");
    baseDir = mkdtempSync(join(tmpdir(), "raas-code-test-"));
    runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });
  });
  afterAll(async () => {
    await runtime.closeAll();
    rmSync(baseDir, { recursive: true, force: true });
  });

  const grade = (solution: string, tests: TCodePayload["tests"]) => {
    return runHiddenTests({
      openSandbox: (spec = {}) => runtime.create(spec),
      solutionPath: "solution.py",
      solution,
      tests,
      signal: new AbortController().signal,
    });
  };
  const statuses = (result: Awaited<ReturnType<typeof grade>>) => result.cases.map((c) => c.status);
  const doubling: TCodePayload["tests"] = {
    kind: "stdio",
    cases: [
      { input: "2\n", output: "4\n" },
      { input: "5\n", output: "10\n" },
      { input: "7\n", output: "14\n" },
    ],
    timeLimitMs: 2_000,
  };

  it("passes an honest solution and fails a wrong one", async () => {
    expect(statuses(await grade("print(int(input()) * 2)", doubling))).toEqual([
      "passed",
      "passed",
      "passed",
    ]);
    expect(statuses(await grade("print(int(input()) + 2)", doubling))).toEqual([
      "passed",
      "wrong_answer",
      "wrong_answer",
    ]);
  });

  it("ignores a background process that rewrites results and answers for later cases", async () => {
    // The attack that earned reward 1 against the old runner: a daemon forging the results file
    // and printing the expected answers into whatever output it can reach.
    const attacker = String.raw`
import os, sys, json
n = int(input())
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        import time
        for _ in range(200):
            for path in (".raas/results.json", "/workspace/.raas/results.json"):
                try:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    json.dump({"pythonVersion": "x", "cases": [{"name": "c", "status": "passed", "durationMs": 0, "detail": ""}]}, open(path, "w"))
                except Exception:
                    pass
            for fd in range(3, 64):
                try:
                    os.write(fd, b"10\n14\n")
                except Exception:
                    pass
            time.sleep(0.01)
    os._exit(0)
print(n + 2)
`;
    expect(statuses(await grade(attacker, doubling))).toEqual(["passed", "wrong_answer", "wrong_answer"]);
  });

  it("keeps the workspace read-only so one case cannot leave answers for the next", async () => {
    const cheat = String.raw`
import os
n = int(input())
try:
    open("solution.py", "w").write("print(int(input()) * 2)\n")
    print("wrote")
except OSError as error:
    print("refused", error.errno)
`;
    const result = await grade(cheat, doubling);
    expect(statuses(result)).toEqual(["wrong_answer", "wrong_answer", "wrong_answer"]);
    expect(result.cases[0]?.detail).toContain("refused");
  });

  it("times out a spinning solution by CPU time, and never a silent one that waits on a child", async () => {
    const spin = await grade("while True: pass", {
      ...doubling,
      cases: [doubling.cases[0]!],
      timeLimitMs: 1_000,
    });
    expect(statuses(spin)).toEqual(["timeout"]);
    const quiet = `
import subprocess, sys
subprocess.run([sys.executable, "-c", "import time; time.sleep(3)"], capture_output=True)
print(int(input()) * 2)
`;
    expect(statuses(await grade(quiet, { ...doubling, cases: [doubling.cases[0]!] }))).toEqual(["passed"]);
  });

  describe("unittest suites", () => {
    const suite = (body: string): TCodePayload["tests"] => ({
      kind: "unittest",
      code: `import unittest\nfrom solution import double\n\nclass T(unittest.TestCase):\n${body}`,
      timeLimitMs: 10_000,
    });
    const twoTests = suite(
      "    def test_two(self):\n        self.assertEqual(double(2), 4)\n    def test_five(self):\n        self.assertEqual(double(5), 10)\n",
    );

    it("reports each test from the runner's own rows", async () => {
      expect(statuses(await grade("def double(x):\n    return 2 * x\n", twoTests))).toEqual([
        "passed",
        "passed",
      ]);
      const half = await grade("def double(x):\n    return 4 if x == 2 else 0\n", twoTests);
      expect(statuses(half).sort()).toEqual(["failed", "passed"]);
    });

    it("grades a solution that exits the interpreter, prints fake rows or leaves a thread as an error", async () => {
      for (const solution of [
        "import os\nos._exit(0)\n",
        "print('RAAS_ROW ' + '0' * 32 + ' passed 1 dGVzdA== ')\nprint('RAAS_DONE ' + '0' * 32)\ndef double(x):\n    return 0\n",
        "import threading, time\nthreading.Thread(target=lambda: time.sleep(30), daemon=True).start()\ndef double(x):\n    return 2 * x\n",
        // Reads the runner's stdin at import to learn the nonce, then forges a passing report.
        "import os, sys, base64\nn = os.read(0, 64).strip().decode() or 'x'\nfor t in ('test_two', 'test_five'):\n    print('RAAS_ROW %s passed 1 %s ' % (n, base64.b64encode(t.encode()).decode()))\nprint('RAAS_DONE ' + n)\nsys.stdout.flush()\nos._exit(0)\n",
      ]) {
        const result = await grade(solution, twoTests);
        expect(
          result.cases.every((c) => c.status !== "passed"),
          solution,
        ).toBe(true);
      }
    });
  });
});
