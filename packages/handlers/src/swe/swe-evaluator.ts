import { type Sandbox, type SandboxSpec, StageFailure } from "@raas/engine";
import { asStageFailure, guardSandbox } from "../base/infrastructure-guard";
import { materializeRepository, runStep, SweStepError } from "./repo-materializer";
import type { TSweInstance } from "./swe-instance.schema";
import { repoSpecFor, SWE_DEFAULTS, type SweEvalOptions } from "./swe-options";
import type { SweRepoSource } from "./swe-repo-source";
import type { SweEvalReport } from "./swe-report.types";
import { buildSweReport, isEmptyPatch } from "./swe-report-builder";
import {
  applyModelPatchScript,
  applyTestPatchScript,
  parseApplyMethod,
  parseVersions,
  runTestsScript,
  SITECUSTOMIZE_PY,
  SWE_FILES,
  TIMEOUT_EXIT_CODES,
  testEnvironment,
  versionProbeScript,
} from "./swe-shell-scripts";
import { defaultTestCommand, detectTestFramework, parseTestLog, testTargets } from "./test-framework";

export interface EvaluateSwePatchInput {
  instance: TSweInstance;
  /** The model's diff against `base_commit`; null when the rollout produced none. */
  modelPatch: string | null;
  repoSource: SweRepoSource;
  /** Starts the fresh evaluation sandbox; evaluation closes it when done. */
  openSandbox(spec: Omit<SandboxSpec, "jobId">): Promise<Sandbox>;
  options?: SweEvalOptions;
  signal?: AbortSignal;
}

function allTests(instance: TSweInstance): string[] {
  const extra = (key: string) => {
    const value = instance[key];
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  };
  return [
    ...new Set([
      ...instance.FAIL_TO_PASS,
      ...instance.PASS_TO_PASS,
      ...extra("FAIL_TO_FAIL"),
      ...extra("PASS_TO_FAIL"),
    ]),
  ];
}

/**
 * SWE-bench evaluation of one patch in a fresh sandbox: check out `base_commit`, run setup,
 * apply the model patch (`git apply`, else `patch --fuzz=5`), reset and apply `test_patch`, run the
 * named tests under a deterministic environment and a time budget, and grade FAIL_TO_PASS /
 * PASS_TO_PASS. Throws `StageFailure('sandbox')` when the sandbox breaks and
 * `StageFailure('eval')` when the instance cannot be graded (bad bundle, test patch that does not
 * apply); a bad model patch is a graded outcome, never an exception.
 */
export async function evaluateSwePatch(input: EvaluateSwePatchInput): Promise<SweEvalReport> {
  const { instance, modelPatch } = input;
  const options = input.options ?? {};
  const signal = input.signal ?? new AbortController().signal;
  const spec = repoSpecFor(instance, options.repoSpecs);
  const tests = allTests(instance);
  const framework = spec.framework ?? detectTestFramework(tests);
  if (framework === null) {
    throw new StageFailure(
      "eval",
      `cannot tell the test framework of ${instance.instance_id} from its test names; set repoSpecs["${instance.repo}"].framework`,
    );
  }
  if (isEmptyPatch(modelPatch) && !options.evaluateEmptyPatch) {
    return buildSweReport({ instance, modelPatch, framework });
  }
  const bundle = await asStageFailure("eval", `no repository for ${instance.repo}`, signal, () =>
    input.repoSource.bundle(instance.repo),
  );
  const setupTimeoutMs = options.setupTimeoutMs ?? SWE_DEFAULTS.setupTimeoutMs;
  const testTimeoutMs = options.testTimeoutMs ?? SWE_DEFAULTS.testTimeoutMs;
  const raw = await asStageFailure("sandbox", "starting the evaluation sandbox failed", signal, () =>
    input.openSandbox({
      ...(options.image !== undefined && { image: options.image }),
      ...(options.sandboxLimits !== undefined && { limits: options.sandboxLimits }),
      files: {
        [SWE_FILES.sitecustomize]: SITECUSTOMIZE_PY,
        [SWE_FILES.modelPatch]: modelPatch ?? "",
        [SWE_FILES.testPatch]: instance.test_patch,
      },
    }),
  );
  const sandbox = guardSandbox(raw, signal);
  try {
    await asGradingFailure(() =>
      materializeRepository({ sandbox, instance, bundle, spec, timeoutMs: setupTimeoutMs, signal }),
    );
    const testCommand = spec.testCommand ?? defaultTestCommand(framework);
    let method: SweEvalReport["patchApplyMethod"] = null;
    if (!isEmptyPatch(modelPatch)) {
      const applied = await sandbox.runTool(
        "bash",
        { command: applyModelPatchScript(instance.repo) },
        { timeoutMs: setupTimeoutMs, signal },
      );
      method = parseApplyMethod(applied.output);
      if (method === null) {
        return buildSweReport({
          instance,
          modelPatch,
          framework,
          testCommand,
          failedApplyPatch: true,
          log: applied.output,
        });
      }
    }
    if (instance.test_patch.trim() !== "") {
      await asGradingFailure(() =>
        runStep(
          sandbox,
          "applying test_patch",
          applyTestPatchScript(instance.repo, instance.base_commit, instance.test_patch),
          { timeoutMs: setupTimeoutMs, signal },
        ),
      );
    }
    const probe = await sandbox.runTool(
      "bash",
      { command: versionProbeScript(instance.repo) },
      { timeoutMs: 60_000, signal },
    );
    const versions = parseVersions(probe.output);
    const result = await sandbox.runTool(
      "bash",
      {
        command: runTestsScript({
          repo: instance.repo,
          command: testCommand,
          targets: testTargets(framework, tests),
          timeoutSec: testTimeoutMs / 1_000,
          env: testEnvironment(options.seed ?? 0, spec.testEnv),
        }),
      },
      { timeoutMs: testTimeoutMs + SWE_DEFAULTS.toolSlackMs, signal },
    );
    const log = new TextDecoder().decode(await sandbox.readFile(SWE_FILES.testLog));
    return buildSweReport({
      instance,
      modelPatch,
      statuses: parseTestLog(framework, log, tests),
      patchApplyMethod: method,
      testTimeout: result.timedOut || TIMEOUT_EXIT_CODES.includes(result.exitCode ?? -1),
      framework,
      testCommand,
      testExitCode: result.exitCode,
      pythonVersion: versions.python,
      pytestVersion: versions.pytest,
      log,
    });
  } finally {
    // A failing close must not mask the grade or the original error; runtimes reap sandboxes anyway.
    await raw.close().catch(() => undefined);
  }
}

/** A failed checkout, setup or test-patch step means the instance cannot be graded: `eval`. */
async function asGradingFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SweStepError) throw new StageFailure("eval", error.message, { cause: error });
    throw error;
  }
}
