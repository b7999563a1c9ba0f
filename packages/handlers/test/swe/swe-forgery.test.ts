import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateSwePatch } from "../../src/swe/swe-evaluator";
import type { TSweInstance } from "../../src/swe/swe-instance.schema";
import { createBundleDirRepoSource } from "../../src/swe/swe-repo-source";
import { type Forgery, slugkitForgeries, tinystatsForgeries } from "../../src/testing/forgery-corpus";
import { createSweTestRuntime, fixtureInstance, SWE_BUNDLE_DIR } from "./support/swe-test-fixture";

const repoSource = createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR });
let fixture: ReturnType<typeof createSweTestRuntime>;

beforeAll(() => {
  fixture = createSweTestRuntime();
});
afterAll(async () => {
  await fixture?.dispose();
  await repoSource.close();
});

function evaluate(instance: TSweInstance, modelPatch: string) {
  return evaluateSwePatch({
    instance,
    modelPatch,
    repoSource,
    openSandbox: (spec) => fixture.runtime.create(spec),
    options: { testTimeoutMs: 60_000 },
  });
}

/**
 * A model patch's code runs inside the test process, and its files could configure that process.
 * The grader owns the run's configuration (config files reverted, no plugin autoload, a read-only
 * workspace) and plants canaries whose outcome it knows among the graded tests: every forgery
 * grades 0, and those whose code ran in the test process are caught as `tampered`.
 */
describe("SWE grading a patch cannot forge (real bubblewrap, real pytest and unittest)", {
  timeout: 240_000,
}, () => {
  const cases: Array<[string, Forgery]> = [
    ...tinystatsForgeries().map((f): [string, Forgery] => ["raas-fixtures__tinystats-1", f]),
    ...slugkitForgeries().map((f): [string, Forgery] => ["raas-fixtures__slugkit-7", f]),
  ];
  for (const [instanceId, forgery] of cases) {
    it.concurrent(`${instanceId}: ${forgery.name}`, async () => {
      const report = await evaluate(fixtureInstance(instanceId), forgery.source);
      expect(report.patchApplyMethod, report.logTail).toBe("git-apply");
      expect(report.resolved, report.logTail).toBe(false);
      expect(report.tampered, JSON.stringify(report.canaries)).toBe(forgery.inProcess);
      if (forgery.inProcess) {
        expect(report.canaries?.lies.length).toBeGreaterThan(0);
      } else {
        expect(report.canaries).toMatchObject({ lies: [], unreached: [] });
      }
    });
  }

  it.concurrent("reverts every configuration file a patch adds and lists them", async () => {
    const instance = fixtureInstance("raas-fixtures__tinystats-1");
    const configs = tinystatsForgeries()
      .filter((f) => /addopts|pytest_plugins|sitecustomize/.test(f.name))
      .map((f) => f.source)
      .join("");
    const report = await evaluate(instance, `${instance.patch}${configs}`);
    // The real fix still resolves: only the grader's files were put back.
    expect(report, report.logTail).toMatchObject({ resolved: true, tampered: false });
    expect(report.reverted).toEqual(
      expect.arrayContaining([
        "setup.cfg",
        "pyproject.toml",
        "tests/tox.ini",
        "pytest.toml",
        "tests/conftest.py",
        "sitecustomize.py",
        "raas.pth",
      ]),
    );
    expect(report.reverted).not.toContain("raas_plug.py");
  });

  it.concurrent("an honest fix and an honest failure leave every canary truthful", async () => {
    for (const id of ["raas-fixtures__tinystats-1", "raas-fixtures__slugkit-7"]) {
      const instance = fixtureInstance(id);
      const fixed = await evaluate(instance, instance.patch);
      expect(fixed, fixed.logTail).toMatchObject({ resolved: true, tampered: false, reverted: [] });
      expect(fixed.canaries?.planted).toBeGreaterThanOrEqual(3);
      expect(fixed.canaries).toMatchObject({ lies: [], unreached: [] });
      // Canaries are not graded tests: none appears among the reported outcomes.
      expect(
        Object.keys(fixed.testStatuses).every((name) => !name.includes("Test") || name.includes("(tests.")),
      ).toBe(true);
    }
  });
});
