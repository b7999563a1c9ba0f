import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Sandbox } from "@raas/engine";
import { failureOf } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateSwePatch } from "../../src/swe/swe-evaluator";
import type { TSweInstance } from "../../src/swe/swe-instance.schema";
import type { SweEvalOptions } from "../../src/swe/swe-options";
import { createBundleDirRepoSource } from "../../src/swe/swe-repo-source";
import { parseSweRepoSpecs } from "../../src/swe/swe-repo-spec.schema";
import type { SweEvalReport } from "../../src/swe/swe-report.types";
import {
  createSweTestRuntime,
  fixtureInstance,
  loadEdgeInstances,
  loadFixtureInstances,
  SWE_BUNDLE_DIR,
  SWE_DATA_DIR,
} from "./support/swe-test-fixture";

/** Each outcome is compared across this many fresh sandboxes (2 is enough to catch a nondeterministic grade). */
const REPEATS = 2;
const HANGING = "raas-fixtures__textwrapper-5";
/** Its environment lacks a dependency the test suite's conftest imports: nothing collects. */
const UNCOLLECTABLE = "raas-fixtures__depless-6";
const repoSource = createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR });
const repoSpecs = parseSweRepoSpecs(JSON.parse(readFileSync(join(SWE_DATA_DIR, "specs.json"), "utf8")));
let fixture: ReturnType<typeof createSweTestRuntime>;

beforeAll(() => {
  fixture = createSweTestRuntime();
});
afterAll(async () => {
  await fixture?.dispose();
  await repoSource.close();
});

function evaluate(instance: TSweInstance, modelPatch: string | null, options: SweEvalOptions = {}) {
  return evaluateSwePatch({
    instance,
    modelPatch,
    repoSource,
    openSandbox: (spec) => fixture.runtime.create(spec),
    options: { testTimeoutMs: 60_000, repoSpecs, ...options },
  });
}

/** The rejection of `work` (failing the test when it resolves). */
async function rejection(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value).slice(0, 500)}`);
    },
    (error: unknown) => error,
  );
}

/** Runs `tasks` with at most `limit` at once (the machine has 2 cores). */
async function pool<T>(tasks: Array<() => Promise<T>>, limit = 3): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

/** What must be identical across repeats: everything but the free-form log. */
const outcome = (report: SweEvalReport) => {
  const { logTail: _log, canaries, ...rest } = report;
  // Each run plants fresh canaries (3 to 5, names and places of its own); what must repeat is their verdict.
  return { ...rest, canaries: canaries && { ...canaries, planted: canaries.planted >= 3 } };
};

// The single-case tests below run concurrently (each on its own sandboxes; they wait on
// processes more than they compute), so each gets a limit for a loaded machine.
describe("evaluateSwePatch on the shipped fixtures (real bubblewrap sandboxes)", { timeout: 240_000 }, () => {
  const instances = [...loadFixtureInstances(), ...loadEdgeInstances()];

  it("ships instances mixing pytest and unittest, a src/ layout with its test_cmd, and two of one repository", () => {
    expect(instances).toHaveLength(12);
    expect(fixtureInstance("raas-fixtures__unitconv-8").test_cmd).toMatch(/PYTHONPATH=src/);
    expect(fixtureInstance("raas-fixtures__ledger-1").repo).toBe(
      fixtureInstance("raas-fixtures__ledger-2").repo,
    );
    expect(instances.some((i) => i.FAIL_TO_PASS[0]?.includes("::"))).toBe(true);
    expect(instances.some((i) => i.FAIL_TO_PASS[0]?.includes(" ("))).toBe(true);
  });

  it(`gold patches resolve 100 % and empty patches 0 %, identically over ${REPEATS} repeats`, async () => {
    const gradable = instances.filter((i) => i.instance_id !== UNCOLLECTABLE);
    const runnable = gradable.filter((i) => i.instance_id !== HANGING);
    const tasks = [
      ...gradable.flatMap((instance) =>
        Array.from({ length: REPEATS }, () => () => evaluate(instance, instance.patch)),
      ),
      ...runnable.flatMap((instance) =>
        Array.from({ length: REPEATS }, () => () => evaluate(instance, "", { evaluateEmptyPatch: true })),
      ),
    ];
    const reports = await pool(tasks);
    const gold = reports.slice(0, gradable.length * REPEATS);
    const empty = reports.slice(gradable.length * REPEATS);
    for (const report of gold) {
      expect(report, report.logTail).toMatchObject({
        resolved: true,
        emptyPatch: false,
        failedApplyPatch: false,
        testTimeout: false,
        patchApplyMethod: "git-apply",
      });
      expect(report.testsStatus.FAIL_TO_PASS.failure).toEqual([]);
      expect(report.testsStatus.PASS_TO_PASS.failure).toEqual([]);
      expect(report.pythonVersion).toMatch(/^3\.\d+\.\d+/);
      expect(report.pytestVersion).toMatch(/^\d+\.\d+/);
    }
    for (const report of empty) {
      const instance = runnable.find((i) => i.instance_id === report.instanceId) as TSweInstance;
      expect(report).toMatchObject({ resolved: false, emptyPatch: true, testTimeout: false });
      // The bug is real: every FAIL_TO_PASS test fails without the fix, every PASS_TO_PASS test passes.
      expect(report.testsStatus.FAIL_TO_PASS.failure).toEqual(instance.FAIL_TO_PASS);
      expect(report.testsStatus.PASS_TO_PASS.success).toEqual(instance.PASS_TO_PASS);
    }
    for (const group of [gold, empty]) {
      for (let i = 0; i < group.length; i += REPEATS) {
        const first = outcome(group[i] as SweEvalReport);
        for (let k = 1; k < REPEATS; k += 1) expect(outcome(group[i + k] as SweEvalReport)).toEqual(first);
      }
    }
  }, 300_000);

  it.concurrent("is an eval error, never reward 0, when the listed tests cannot be collected even with the gold patch", async () => {
    const instance = fixtureInstance(UNCOLLECTABLE);
    // The gold patch itself, and an empty patch (which falls back to a gold run before deciding).
    const errors = await Promise.all(
      [instance.patch, ""].map((patch) => rejection(evaluate(instance, patch, { evaluateEmptyPatch: true }))),
    );
    for (const error of errors) {
      expect(failureOf(error)?.kind, String(error)).toBe("eval");
      expect(String((error as Error).message)).toMatch(/none of the listed tests .* reported a result/);
      expect(String((error as Error).message)).toMatch(/raas_missing_dependency/);
    }
  });

  it.concurrent("is an eval error when the repository's setup command and environment are not configured", async () => {
    const instance = fixtureInstance("raas-fixtures__envkit-2");
    const error = await rejection(evaluate(instance, instance.patch, { repoSpecs: {} }));
    expect(failureOf(error)?.kind, String(error)).toBe("eval");
  });

  it.concurrent("grades a model patch that breaks the package's imports as unresolved (the model's fault)", async () => {
    const instance = fixtureInstance("raas-fixtures__tinystats-1");
    const breaking = [
      "diff --git a/tinystats/__init__.py b/tinystats/__init__.py",
      "--- a/tinystats/__init__.py",
      "+++ b/tinystats/__init__.py",
      "@@ -1,5 +1,5 @@",
      ' """Small descriptive statistics helpers."""',
      " ",
      "-from .core import mean, median, mode",
      "+from .core import mean, median, mode, nonexistent",
      " ",
      ' __all__ = ["mean", "median", "mode"]',
      "",
    ].join("\n");
    const goodReferences = new Set<string>();
    let opened = 0;
    const evaluateCounting = () =>
      evaluateSwePatch({
        instance,
        modelPatch: breaking,
        repoSource,
        openSandbox: (spec) => {
          opened += 1;
          return fixture.runtime.create(spec);
        },
        options: { testTimeoutMs: 60_000 },
        goodReferences,
      });
    const report = await evaluateCounting();
    expect(report, report.logTail).toMatchObject({
      resolved: false,
      failedApplyPatch: false,
      testTimeout: false,
    });
    // The gold patch ran once to tell the model's fault from a broken environment; not again.
    expect(opened).toBe(2);
    expect(goodReferences.size).toBe(1);
    expect(outcome(await evaluateCounting())).toEqual(outcome(report));
    expect(opened).toBe(3);
    expect(report.testsStatus.FAIL_TO_PASS.failure).toEqual(instance.FAIL_TO_PASS);
    expect(report.testsStatus.PASS_TO_PASS.failure).toEqual(instance.PASS_TO_PASS);
    expect(report.logTail).toMatch(/ImportError|cannot import name/);
  });

  it.concurrent("grades an empty patch without a sandbox by default", async () => {
    const instance = fixtureInstance("raas-fixtures__tinystats-1");
    const report = await evaluateSwePatch({
      instance,
      modelPatch: "",
      repoSource,
      openSandbox: () => Promise.reject(new Error("no sandbox expected")),
    });
    expect(report).toMatchObject({ resolved: false, emptyPatch: true, failedApplyPatch: false });
  });

  it.concurrent("reports failed_apply_patch for a patch that applies nowhere", async () => {
    const broken = [
      "diff --git a/tinystats/core.py b/tinystats/core.py",
      "--- a/tinystats/core.py",
      "+++ b/tinystats/core.py",
      "@@ -40,3 +40,3 @@",
      " def does_not_exist():",
      "-    return 1",
      "+    return 2",
      " ",
      "",
    ].join("\n");
    const report = await evaluate(fixtureInstance("raas-fixtures__tinystats-1"), broken);
    expect(report).toMatchObject({
      resolved: false,
      failedApplyPatch: true,
      emptyPatch: false,
      patchApplyMethod: null,
    });
  });

  it.concurrent("falls back to patch --fuzz when git apply rejects drifted context", async () => {
    const instance = fixtureInstance("raas-fixtures__spans-12");
    const drifted = instance.patch.replace(
      '     """Merges overlapping closed intervals ``(start, end)``; returns sorted tuples."""',
      '     """Merge intervals (the docstring changed since this patch was written)."""',
    );
    expect(drifted).not.toBe(instance.patch);
    const report = await evaluate(instance, drifted);
    expect(report).toMatchObject({ resolved: true, patchApplyMethod: "patch-fuzz" });
  });

  it.concurrent("resets model edits to the test patch's files before applying it", async () => {
    const instance = fixtureInstance("raas-fixtures__tinystats-1");
    const tamperedTests = [
      "diff --git a/tests/test_core.py b/tests/test_core.py",
      "--- a/tests/test_core.py",
      "+++ b/tests/test_core.py",
      "@@ -4,7 +4,7 @@ from tinystats import mean, median, mode",
      " ",
      " ",
      " def test_mean():",
      "-    assert mean([1, 2, 3, 4]) == 2.5",
      "+    assert mean([1, 2, 3, 4]) == 99",
      " ",
      " ",
      " def test_mean_empty_raises():",
      "",
    ].join("\n");
    const report = await evaluate(instance, `${instance.patch}${tamperedTests}`);
    expect(report).toMatchObject({ resolved: true, patchApplyMethod: "git-apply" });
  });

  it.concurrent("reverts a conftest.py or pytest.ini the model patch adds to make every test pass", async () => {
    const instance = fixtureInstance("raas-fixtures__tinystats-1");
    const passEverything = [
      "diff --git a/conftest.py b/conftest.py",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/conftest.py",
      "@@ -0,0 +1,8 @@",
      "+import pytest",
      "+",
      "+@pytest.hookimpl(hookwrapper=True)",
      "+def pytest_runtest_makereport(item, call):",
      "+    outcome = yield",
      "+    report = outcome.get_result()",
      '+    report.outcome = "passed"',
      "+    report.longrepr = None",
      "diff --git a/tests/pytest.ini b/tests/pytest.ini",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/tests/pytest.ini",
      "@@ -0,0 +1,2 @@",
      "+[pytest]",
      "+addopts = -p no:python",
      "",
    ].join("\n");
    const report = await evaluate(instance, passEverything);
    expect(report).toMatchObject({ resolved: false, patchApplyMethod: "git-apply" });
    // The same hook with the real fix still resolves: only the infrastructure files are reverted.
    const withFix = await evaluate(instance, `${instance.patch}${passEverything}`);
    expect(withFix).toMatchObject({ resolved: true });
  });

  it("reports test_timeout when the test suite hangs", async () => {
    const instance = fixtureInstance(HANGING);
    const report = await evaluate(instance, "", { evaluateEmptyPatch: true, testTimeoutMs: 3_000 });
    expect(report).toMatchObject({ resolved: false, testTimeout: true });
    expect(report.testExitCode === 124 || report.testExitCode === 137).toBe(true);
    // Tests that finished before the hang are still graded.
    expect(report.testsStatus.PASS_TO_PASS.success.length).toBeGreaterThan(0);
    expect(report.testsStatus.FAIL_TO_PASS.failure).toContain("tests/test_wrap.py::test_long_word_is_split");
  });

  it.concurrent("turns a sandbox that dies during evaluation into a sandbox failure, not a grade", async () => {
    const instance = fixtureInstance("raas-fixtures__tinystats-1");
    let calls = 0;
    const error = await evaluateSwePatch({
      instance,
      modelPatch: instance.patch,
      repoSource,
      openSandbox: async (spec) => {
        const sandbox = await fixture.runtime.create(spec);
        const dying: Sandbox = {
          id: sandbox.id,
          get state() {
            return sandbox.state;
          },
          runTool: (...args) => sandbox.runTool(...args),
          exec: async (...args) => {
            calls += 1;
            // The second command is the model patch going in: the sandbox dies under it.
            if (calls === 2) await sandbox.close();
            return sandbox.exec(...args);
          },
          readFile: (path) => sandbox.readFile(path),
          writeFile: (path, data) => sandbox.writeFile(path, data),
          close: () => sandbox.close(),
        };
        return dying;
      },
    }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(failureOf(error)?.kind, String(error)).toBe("sandbox");
  });
});
