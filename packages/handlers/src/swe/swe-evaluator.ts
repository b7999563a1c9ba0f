import type { Sandbox, SandboxSpec } from "@raas/engine";
import { stageFailure } from "@raas/shared";
import { asStageFailure, guardSandbox } from "../base/infrastructure-guard";
import { judgeListedTests } from "./listed-tests";
import { SweStepError } from "./repo-materializer";
import { selectSweImage } from "./swe-image";
import type { TSweInstance } from "./swe-instance.schema";
import { SWE_DEFAULTS, type SweEvalOptions } from "./swe-options";
import type { SweRepoSource } from "./swe-repo-source";
import { resolveSweSpec } from "./swe-repo-spec";
import type { TSweRepoSpec } from "./swe-repo-spec.schema";
import type { SweEvalReport } from "./swe-report.types";
import { buildSweReport, isEmptyPatch } from "./swe-report-builder";
import { SITECUSTOMIZE_PY, SWE_FILES } from "./swe-shell-scripts";
import { runSweTests, type SweTestRunOutcome } from "./swe-test-run";
import { defaultTestCommand, detectTestFramework, type TestFramework, testTargets } from "./test-framework";

export interface EvaluateSwePatchInput {
  instance: TSweInstance;
  /** The model's diff against `base_commit`; null when the rollout produced none. */
  modelPatch: string | null;
  repoSource: SweRepoSource;
  /** Starts a fresh evaluation sandbox; evaluation closes it when done. */
  openSandbox(spec: Omit<SandboxSpec, "jobId">): Promise<Sandbox>;
  options?: SweEvalOptions;
  /** The job's own spec, over the matching `options.repoSpecs` entry. */
  spec?: TSweRepoSpec;
  /**
   * Environments in which the gold patch already made the listed tests report (keys from
   * `referenceKey`), so the gold run of `judgeListedTests` happens once per environment; the
   * caller owns it (the handler keeps one per process). Default: none kept.
   */
  goodReferences?: Set<string>;
  signal?: AbortSignal;
}

/** Every test name the instance lists (FAIL_TO_PASS, PASS_TO_PASS and the optional to-fail lists). */
function listedTests(instance: TSweInstance): string[] {
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

const LOG_EXCERPT_CHARS = 1_500;

/**
 * SWE-bench evaluation of one patch in a fresh sandbox (`runSweTests`), graded on FAIL_TO_PASS /
 * PASS_TO_PASS. Throws `stageFailure('sandbox')` when the sandbox breaks and `stageFailure('eval')`
 * when the instance cannot be graded: no repository or base commit, no environment image, a
 * failing setup command or test patch, or none of the listed tests reporting a result although
 * the gold patch cannot make them report either (see `judgeListedTests`). A bad model patch is a
 * graded outcome, never an exception.
 */
export async function evaluateSwePatch(input: EvaluateSwePatchInput): Promise<SweEvalReport> {
  const { instance, modelPatch } = input;
  const options = input.options ?? {};
  const signal = input.signal ?? new AbortController().signal;
  const spec = resolveSweSpec(instance, options.repoSpecs, input.spec);
  const tests = listedTests(instance);
  const framework = spec.framework ?? detectTestFramework(tests);
  if (framework === null) {
    throw stageFailure(
      "eval",
      `cannot tell the test framework of ${instance.instance_id} from its test names; set the spec's framework`,
    );
  }
  const testCommand = spec.testCommand ?? defaultTestCommand(framework);
  if (isEmptyPatch(modelPatch) && !options.evaluateEmptyPatch) {
    return buildSweReport({ instance, modelPatch, framework, testCommand });
  }
  const evaluate = (patch: string | null) =>
    evaluateOnce({ ...input, spec, framework, tests, testCommand, signal, patch });
  const outcome = await evaluate(modelPatch);
  if (outcome.kind === "patch-failed") {
    return buildSweReport({
      instance,
      modelPatch,
      framework,
      testCommand,
      failedApplyPatch: true,
      log: outcome.log,
    });
  }
  const isReferenceRun = !isEmptyPatch(instance.patch) && modelPatch === instance.patch;
  let verdict = judgeListedTests({
    statuses: outcome.statuses,
    tests,
    isReferenceRun,
    hasReference: !isEmptyPatch(instance.patch),
  });
  let referenceLog: string | null = null;
  const key = referenceKey(instance, spec);
  // A run whose canaries lied is graded (void) as it is: the gold patch has nothing to tell.
  if (outcome.canaries.lies.length > 0) verdict = "graded";
  if (verdict === "check-reference" && input.goodReferences?.has(key)) verdict = "graded";
  if (verdict === "check-reference") {
    const reference = await evaluate(instance.patch);
    referenceLog = reference.log;
    verdict =
      reference.kind === "tests-ran" &&
      judgeListedTests({ statuses: reference.statuses, tests, isReferenceRun: true, hasReference: true }) ===
        "graded"
        ? "graded"
        : "eval-error";
    if (verdict === "graded") input.goodReferences?.add(key);
  }
  if (verdict === "eval-error") {
    const why =
      referenceLog === null
        ? isReferenceRun
          ? "with the gold patch"
          : "and the instance has no gold patch to check the environment with"
        : "with this patch nor with the gold patch";
    throw stageFailure(
      "eval",
      `none of the listed tests of ${instance.instance_id} reported a result ${why} (collection or import error, or a wrong test command \`${testCommand}\`): ${outcome.log.slice(-LOG_EXCERPT_CHARS).trim()}`,
    );
  }
  return buildSweReport({
    instance,
    modelPatch,
    statuses: outcome.statuses,
    patchApplyMethod: outcome.patchApplyMethod,
    testTimeout: outcome.timedOut,
    framework,
    testCommand,
    testExitCode: outcome.exitCode,
    pythonVersion: outcome.pythonVersion,
    pytestVersion: outcome.pytestVersion,
    reverted: outcome.reverted,
    canaries: outcome.canaries,
    log: outcome.log,
  });
}

/** Identifies an instance's evaluation environment (repository state, spec, image choice). */
function referenceKey(instance: TSweInstance, spec: TSweRepoSpec): string {
  return JSON.stringify([instance.instance_id, instance.base_commit, instance.test_patch, spec]);
}

/** One pass in its own fresh sandbox, closed afterwards. */
async function evaluateOnce(
  input: EvaluateSwePatchInput & {
    spec: TSweRepoSpec;
    framework: TestFramework;
    tests: string[];
    testCommand: string;
    signal: AbortSignal;
    patch: string | null;
  },
): Promise<SweTestRunOutcome> {
  const { instance, spec, signal } = input;
  const options = input.options ?? {};
  const bundle = await asStageFailure("eval", `no repository for ${instance.repo}`, signal, () =>
    input.repoSource.bundle(instance.repo, instance.base_commit),
  );
  const image = await asStageFailure("sandbox", "no environment image", signal, async () =>
    selectSweImage(instance, spec, options),
  );
  const raw = await asStageFailure("sandbox", "starting the evaluation sandbox failed", signal, () =>
    input.openSandbox({
      ...(image !== undefined && { image }),
      ...(options.sandboxLimits !== undefined && { limits: options.sandboxLimits }),
      files: {
        [SWE_FILES.sitecustomize]: SITECUSTOMIZE_PY,
        [SWE_FILES.modelPatch]: input.patch ?? "",
        [SWE_FILES.testPatch]: instance.test_patch,
      },
    }),
  );
  const sandbox = guardSandbox(raw, signal);
  try {
    return await asGradingFailure(() =>
      runSweTests({
        sandbox,
        instance,
        bundle,
        spec,
        framework: input.framework,
        modelPatch: input.patch,
        testCommand: input.testCommand,
        directives: spec.testDirectives ?? testTargets(input.framework, input.tests),
        tests: input.tests,
        seed: options.seed ?? 0,
        setupTimeoutMs: options.setupTimeoutMs ?? SWE_DEFAULTS.setupTimeoutMs,
        testTimeoutMs: options.testTimeoutMs ?? SWE_DEFAULTS.testTimeoutMs,
        testSlackMs: SWE_DEFAULTS.toolSlackMs,
        signal,
      }),
    );
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
    if (error instanceof SweStepError) throw stageFailure("eval", error.message, { cause: error });
    throw error;
  }
}
