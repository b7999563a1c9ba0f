import type { Sandbox } from "@raas/engine";
import { type CanaryCheck, checkCanaries, plantCanaries } from "../base/canary/index";
import { execScript, materializeRepository, runStep, stepOutput } from "./repo-materializer";
import { canaryDirectives, planSweCanaries, reportedOutcomes, sweCanaryHosts } from "./swe-canaries";
import type { TSweInstance } from "./swe-instance.schema";
import type { TSweRepoSpec } from "./swe-repo-spec.schema";
import type { PatchApplyMethod } from "./swe-report.types";
import { isEmptyPatch } from "./swe-report-builder";
import {
  applyModelPatchScript,
  applyTestPatchScript,
  parseApplyMethod,
  parseReverted,
  parseVersions,
  removeGraderInputsScript,
  runTestsScript,
  snapshotUntrackedScript,
  TEST_CONFIG_VARIABLES,
  TIMEOUT_EXIT_CODES,
  testEnvironment,
  versionProbeScript,
} from "./swe-shell-scripts";
import { parseTestLog, type TestFramework } from "./test-framework";
import type { TestStatusMap } from "./test-status.types";

/** What one pass over a sandbox produced: the patch did not apply, or the tests ran. */
export type SweTestRunOutcome =
  | { kind: "patch-failed"; log: string }
  | {
      kind: "tests-ran";
      /** The listed and other tests' outcomes; the canaries' are in `canaries`, not here. */
      statuses: TestStatusMap;
      /** Test-infrastructure files the model patch added or changed, put back to the base commit. */
      reverted: string[];
      /** What the canaries planted beside the graded tests showed. */
      canaries: CanaryCheck;
      log: string;
      exitCode: number | null;
      timedOut: boolean;
      patchApplyMethod: PatchApplyMethod;
      pythonVersion: string | null;
      pytestVersion: string | null;
    };

export interface RunSweTestsInput {
  sandbox: Sandbox;
  instance: TSweInstance;
  bundle: Uint8Array;
  spec: TSweRepoSpec;
  framework: TestFramework;
  /** Written by the caller to `SWE_FILES.modelPatch` when non-empty. */
  modelPatch: string | null;
  testCommand: string;
  directives: readonly string[];
  /** Every test name the instance lists (disambiguates log lines). */
  tests: readonly string[];
  seed: number;
  setupTimeoutMs: number;
  testTimeoutMs: number;
  testSlackMs: number;
  signal: AbortSignal;
}

/**
 * In a fresh sandbox: checkout + setup, the version probe (isolated, before any of the model's
 * code is there), the model patch (`git apply`, else `patch --fuzz`) with the test-infrastructure
 * files it touched reverted, the test patch over reset test files, canaries planted among the
 * graded tests, the grader's inputs removed, and the test run — with a configuration only the
 * grader sets (no plugin autoload, no PYTEST_ADDOPTS and friends, the spec's plugins) and, unless
 * the spec allows writes, a read-only workspace. The log is the test command's captured
 * stdout+stderr. Failed checkout/setup/test-patch steps throw `SweStepError`.
 */
export async function runSweTests(input: RunSweTestsInput): Promise<SweTestRunOutcome> {
  const { sandbox, instance, spec, signal, framework } = input;
  const stepOptions = { timeoutMs: input.setupTimeoutMs, signal };
  await materializeRepository({ sandbox, instance, bundle: input.bundle, spec, ...stepOptions });
  const specEnv = { ...spec.env, ...spec.testEnv };
  const env = { ...testEnvironment(input.seed), ...specEnv };
  const probe = await execScript(sandbox, versionProbeScript(instance.repo), {
    timeoutMs: 60_000,
    signal,
    env,
  });
  const versions = parseVersions(probe.stdout);
  let patchApplyMethod: PatchApplyMethod = null;
  let reverted: string[] = [];
  if (!isEmptyPatch(input.modelPatch)) {
    await runStep(sandbox, "listing untracked files", snapshotUntrackedScript(instance.repo), stepOptions);
    const applied = await execScript(
      sandbox,
      applyModelPatchScript(instance.repo, instance.base_commit),
      stepOptions,
    );
    patchApplyMethod = parseApplyMethod(applied.stdout);
    if (patchApplyMethod === null) return { kind: "patch-failed", log: stepOutput(applied) };
    reverted = parseReverted(applied.stdout);
  }
  if (instance.test_patch.trim() !== "") {
    await runStep(
      sandbox,
      "applying test_patch",
      applyTestPatchScript(instance.repo, instance.base_commit, instance.test_patch),
      stepOptions,
    );
  }
  await runStep(sandbox, "removing the grader's inputs", removeGraderInputsScript(), stepOptions);
  const { hosts, gradedTestsByHost } = sweCanaryHosts(instance, framework);
  const plan = planSweCanaries(instance.repo, framework, hosts);
  const plantedHosts = await plantCanaries(sandbox, plan, stepOptions);
  const plugins =
    framework === "pytest" ? (spec.pytestPlugins ?? []).map((name) => ` -p ${name}`).join("") : "";
  const result = await execScript(
    sandbox,
    runTestsScript({
      repo: instance.repo,
      command: `${input.testCommand}${plugins}`,
      directives: [...input.directives, ...canaryDirectives(framework, input.directives, plan, plantedHosts)],
      timeoutSec: input.testTimeoutMs / 1_000,
      unset: TEST_CONFIG_VARIABLES.filter((name) => !(name in specEnv)),
    }),
    {
      timeoutMs: input.testTimeoutMs + input.testSlackMs,
      signal,
      env,
      ...(spec.writableRepository ? {} : { readOnlyWorkspace: true }),
    },
  );
  const log = stepOutput(result);
  const timedOut = result.timedOut || TIMEOUT_EXIT_CODES.includes(result.exitCode ?? -1);
  const parsed = parseTestLog(framework, log, [...input.tests, ...plan.canaries.map((c) => c.id)]);
  const canaries = checkCanaries({
    canaries: plan.canaries,
    plantedHosts,
    outcomes: reportedOutcomes(parsed),
    gradedTestsByHost,
    timedOut,
  });
  const canaryIds = new Set(plan.canaries.map((canary) => canary.id));
  const statuses: TestStatusMap = new Map([...parsed].filter(([name]) => !canaryIds.has(name)));
  return {
    kind: "tests-ran",
    statuses,
    reverted,
    canaries,
    log,
    exitCode: result.exitCode,
    timedOut,
    patchApplyMethod,
    pythonVersion: versions.python,
    pytestVersion: versions.pytest,
  };
}
