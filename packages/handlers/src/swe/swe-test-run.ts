import type { Sandbox } from "@raas/engine";
import { execScript, materializeRepository, runStep, stepOutput } from "./repo-materializer";
import type { TSweInstance } from "./swe-instance.schema";
import type { TSweRepoSpec } from "./swe-repo-spec.schema";
import type { PatchApplyMethod } from "./swe-report.types";
import { isEmptyPatch } from "./swe-report-builder";
import {
  applyModelPatchScript,
  applyTestPatchScript,
  parseApplyMethod,
  parseVersions,
  runTestsScript,
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
      statuses: TestStatusMap;
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
 * In a fresh sandbox: checkout + setup, the model patch (`git apply`, else `patch --fuzz`), the
 * test patch over reset test files, the version probe and the test run; the log is the test
 * command's captured stdout+stderr. Failed checkout/setup/test-patch steps throw `SweStepError`.
 */
export async function runSweTests(input: RunSweTestsInput): Promise<SweTestRunOutcome> {
  const { sandbox, instance, spec, signal } = input;
  const stepOptions = { timeoutMs: input.setupTimeoutMs, signal };
  await materializeRepository({ sandbox, instance, bundle: input.bundle, spec, ...stepOptions });
  let patchApplyMethod: PatchApplyMethod = null;
  if (!isEmptyPatch(input.modelPatch)) {
    const applied = await execScript(
      sandbox,
      applyModelPatchScript(instance.repo, instance.base_commit),
      stepOptions,
    );
    patchApplyMethod = parseApplyMethod(applied.stdout);
    if (patchApplyMethod === null) return { kind: "patch-failed", log: stepOutput(applied) };
  }
  if (instance.test_patch.trim() !== "") {
    await runStep(
      sandbox,
      "applying test_patch",
      applyTestPatchScript(instance.repo, instance.base_commit, instance.test_patch),
      stepOptions,
    );
  }
  const env = { ...testEnvironment(input.seed), ...spec.env, ...spec.testEnv };
  const probe = await execScript(sandbox, versionProbeScript(instance.repo), {
    timeoutMs: 60_000,
    signal,
    env,
  });
  const versions = parseVersions(probe.stdout);
  const result = await execScript(
    sandbox,
    runTestsScript({
      repo: instance.repo,
      command: input.testCommand,
      directives: input.directives,
      timeoutSec: input.testTimeoutMs / 1_000,
    }),
    { timeoutMs: input.testTimeoutMs + input.testSlackMs, signal, env },
  );
  const log = stepOutput(result);
  return {
    kind: "tests-ran",
    statuses: parseTestLog(input.framework, log, input.tests),
    log,
    exitCode: result.exitCode,
    timedOut: result.timedOut || TIMEOUT_EXIT_CODES.includes(result.exitCode ?? -1),
    patchApplyMethod,
    pythonVersion: versions.python,
    pytestVersion: versions.pytest,
  };
}
