// Code grading while the disk holding the sandboxes (a real tmpfs) is full: whichever step of the
// grade meets the full disk — opening the grading sandbox with the solution and hidden tests,
// probing python, planting canaries, running the cases or the suite — the grade fails as
// infrastructure (`sandbox`), never a reward and never `tampered`. The grading sandbox is opened
// and guarded as the code handler's EVAL does it.

import { asStageFailure, type Sandbox, type SandboxSpec } from "@raas/engine";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { TmpfsDisk } from "@raas/sandbox/testing";
import { failureOf } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardSandbox } from "../../src/base/infrastructure-guard";
import type { TCodePayload } from "../../src/code/code-handler";
import { runHiddenTests } from "../../src/code/hidden-tests";
import { StepDiskFiller } from "../support/step-disk-filler";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const SOLUTION =
  "def digit_sum(n):\n    return sum(int(d) for d in str(abs(n)))\n\nif __name__ == '__main__':\n    print(digit_sum(int(input())))\n";
const STDIO: TCodePayload["tests"] = {
  kind: "stdio",
  cases: [
    { input: "123\n", output: "6\n" },
    { input: "-45\n", output: "9\n" },
  ],
  timeLimitMs: 2_000,
};
const UNITTEST: TCodePayload["tests"] = {
  kind: "unittest",
  code: "import unittest\nfrom solution import digit_sum\n\nclass T(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(digit_sum(-45), 9)\n",
  timeLimitMs: 10_000,
};

describe("code grading on a full host disk (real bubblewrap, real tmpfs)", () => {
  let disk: TmpfsDisk;
  let runtime: BubblewrapRuntime;
  const filler = new StepDiskFiller(() => disk.fill());

  beforeAll(() => {
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("code grading tests need bubblewrap: apt-get install -y bubblewrap");
    disk = TmpfsDisk.mount(32);
    runtime = new BubblewrapRuntime({ bwrapPath, baseDir: disk.baseDir, warn: () => {} });
  });
  afterAll(async () => {
    await runtime?.closeAll();
    disk?.unmount();
  });

  /** The hidden tests run as the code handler's EVAL runs them; the disk freed afterwards. */
  const grade = async (tests: TCodePayload["tests"]) => {
    const signal = new AbortController().signal;
    const openSandbox = async (spec: Omit<SandboxSpec, "jobId"> = {}): Promise<Sandbox> => {
      const sandbox = await asStageFailure("sandbox", "starting the sandbox failed", signal, () =>
        runtime.create(spec, signal),
      );
      return guardSandbox(filler.wrap(sandbox), signal);
    };
    try {
      return await runHiddenTests({
        openSandbox,
        solutionPath: "solution.py",
        solution: SOLUTION,
        tests,
        signal,
      });
    } finally {
      disk.free();
    }
  };

  for (const [name, tests] of [
    ["stdio cases", STDIO],
    ["a unittest suite with canaries", UNITTEST],
  ] as const) {
    it(`fails ${name} as infrastructure at every step, and passes them with room on the disk`, async () => {
      filler.arm(null);
      const clean = await grade(tests);
      expect(clean.cases.map((c) => c.status).every((status) => status === "passed")).toBe(true);
      expect(clean.canaries?.lies ?? []).toEqual([]);
      const steps = filler.steps;
      expect(steps).toBeGreaterThanOrEqual(2);
      // Step 0: full before the grading sandbox (with the solution and hidden tests) is opened.
      for (let step = 0; step <= steps; step += 1) {
        if (step === 0) disk.fill();
        filler.arm(step === 0 ? null : step);
        const error = await grade(tests).then(
          (outcome) => new Error(`step ${step}: graded ${JSON.stringify(outcome.cases)}`),
          (caught: unknown) => caught,
        );
        expect(failureOf(error)?.kind ?? String(error), `step ${step}: ${String(error)}`).toBe("sandbox");
      }
    }, 180_000);
  }
});
