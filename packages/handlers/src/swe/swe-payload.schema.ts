import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";
import { ZCanaryCheck } from "../base/canary/index";
import { ZSweInstance } from "./swe-instance.schema";
import { ZSweRepoSpec } from "./swe-repo-spec.schema";

/**
 * Payload of a `swe` job: `{ taskId?, instance, agent?, spec?, modelPatch? }`. A bare SWE-bench
 * instance (a JSONL line as is) is accepted too and wrapped; `taskId` defaults to the instance id.
 * `spec` overrides fields of the handler's spec for the instance's repository. With `modelPatch`
 * (a prediction's `model_patch`, null for none) the job grades that patch and runs no rollout.
 */
export const ZSwePayload = z.preprocess(
  (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    const wrapped: Record<string, unknown> = "instance" in record ? { ...record } : { instance: record };
    const instance = wrapped.instance as Record<string, unknown> | undefined;
    if (wrapped.taskId === undefined && typeof instance?.instance_id === "string") {
      wrapped.taskId = instance.instance_id;
    }
    return wrapped;
  },
  ZAgentTaskBase.extend({
    instance: ZSweInstance,
    spec: ZSweRepoSpec.optional().describe("Overrides of the server's spec for the instance's repository."),
    modelPatch: z
      .string()
      .nullable()
      .optional()
      .describe("A prediction's `model_patch` to grade instead of running a rollout (null: no patch)."),
  })
    .strict()
    .meta({
      description:
        "A SWE-bench instance to resolve: `{ taskId?, instance, agent?, spec?, modelPatch? }`; a bare instance is accepted and wrapped, `taskId` defaults to its id.",
    }),
);

const ZTestSplit = z
  .object({
    success: z.array(z.string()).describe("Tests of this category that passed."),
    failure: z.array(z.string()).describe("Tests of this category that failed or did not run."),
  })
  .describe("Tests of one category split by outcome.");

/** The swe handler's job result: the evaluation report (see `SweEvalReport`). */
export const ZSweResult = z.object({
  instanceId: z.string().describe("The graded instance."),
  resolved: z.boolean().describe("Every FAIL_TO_PASS and PASS_TO_PASS test passed (reward 1)."),
  emptyPatch: z.boolean().describe("The model left no change in the repository."),
  failedApplyPatch: z.boolean().describe("Neither `git apply` nor `patch --fuzz` could apply the patch."),
  testTimeout: z
    .boolean()
    .describe("The test run exceeded its time budget; tests not reached count as failed."),
  patchApplyMethod: z
    .enum(["git-apply", "patch-fuzz"])
    .nullable()
    .describe("How the patch went in, or null when it did not."),
  testsStatus: z
    .object({
      FAIL_TO_PASS: ZTestSplit,
      PASS_TO_PASS: ZTestSplit,
      FAIL_TO_FAIL: ZTestSplit,
      PASS_TO_FAIL: ZTestSplit,
    })
    .describe("SWE-bench's `tests_status`."),
  testStatuses: z
    .record(z.string(), z.string())
    .describe("Every outcome the log parser found (test → PASSED, FAILED, …), including unlisted tests."),
  framework: z.enum(["pytest", "unittest"]).nullable().describe("The test framework used."),
  testCommand: z.string().nullable().describe("The test command run."),
  testExitCode: z.number().int().nullable().describe("Its exit status."),
  pythonVersion: z.string().nullable().describe("`python3 --version` in the evaluation sandbox."),
  pytestVersion: z.string().nullable().describe("pytest's version there (null: not installed)."),
  modelPatch: z.string().nullable().describe("The evaluated patch; null when the rollout produced none."),
  reverted: z
    .array(z.string())
    .describe(
      "Test-infrastructure files the model patch added or changed (pytest configuration, conftest.py, start-up hooks, compiled modules), put back to the base commit before the run.",
    ),
  canaries: ZCanaryCheck.nullable().describe("What the planted canaries showed; null when no tests ran."),
  tampered: z
    .boolean()
    .describe("A canary lied: the grade is void (reward 0; the job fails as the policy's `tampered`)."),
  logTail: z.string().describe("The last KiB of the test log (and patch output when applying failed)."),
  diffError: z.string().nullable().optional().describe("Why the diff could not be taken, when it could not."),
});
export type TSwePayload = z.output<typeof ZSwePayload>;
