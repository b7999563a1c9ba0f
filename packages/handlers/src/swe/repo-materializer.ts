import type { Sandbox, SandboxExecResult } from "@raas/engine";
import { type FailureError, type StageFailureData, stageFailure } from "@raas/shared";
import type { TSweInstance } from "./swe-instance.schema";
import type { TSweRepoSpec } from "./swe-repo-spec.schema";
import { materializeScript, SWE_FILES, setupScript } from "./swe-shell-scripts";

/** A step failed (non-zero exit, a signal or its time limit); carries the step's output. */
export class SweStepError extends Error {
  override readonly name = "SweStepError";
  constructor(
    readonly step: string,
    readonly result: SandboxExecResult,
  ) {
    const how = result.timedOut
      ? "timed out"
      : result.exitCode === null
        ? `was killed by ${result.signal ?? "a signal"}`
        : `exited with ${result.exitCode}`;
    super(`${step} ${how}: ${stepOutput(result).slice(-2_000).trim()}`);
  }
}

/**
 * The failure of a checkout or setup step in INIT, before anything of the policy ran. Who caused
 * it decides: a step that ran out of its time limit is `timeout` (a slow or overloaded host can
 * cause it), one killed by a signal is `sandbox` (the kernel or the host ended it), and one that
 * exited non-zero on the clean repository makes the instance ungradable (`eval`). None is trainable.
 */
export function initStepFailure(error: SweStepError): FailureError<StageFailureData> {
  const { result } = error;
  const kind = result.timedOut ? "timeout" : result.exitCode === null ? "sandbox" : "eval";
  return stageFailure(kind, error.message, { cause: error });
}

/** stdout then stderr of a step, as one text for messages and logs. */
export function stepOutput(result: SandboxExecResult): string {
  return result.stderr === "" ? result.stdout : `${result.stdout}${result.stderr}`;
}

/** Name of the checkout step in `SweStepError.step`. */
const CHECKOUT_STEP = "checking out base_commit";

export interface StepOptions {
  timeoutMs: number;
  signal: AbortSignal;
  env?: Record<string, string>;
  /** Bind the workspace read-only for this command (the test run). Default false. */
  readOnlyWorkspace?: boolean;
}

/**
 * Runs a bash script as a non-interactive command (`sandbox.exec`: no terminal, stdin closed,
 * apart from the agent's shell, killed whole at its time limit). Returns the result whatever
 * the exit code; sandbox errors propagate.
 */
export function execScript(
  sandbox: Sandbox,
  script: string,
  options: StepOptions,
): Promise<SandboxExecResult> {
  return sandbox.exec(["bash", "-c", script], {
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    ...(options.env !== undefined && { env: options.env }),
    ...(options.readOnlyWorkspace === true && { readOnlyWorkspace: true }),
  });
}

/** Runs a bash script with `execScript`; a non-zero exit, a signal or a timeout throws `SweStepError`. */
export async function runStep(
  sandbox: Sandbox,
  step: string,
  script: string,
  options: StepOptions,
): Promise<SandboxExecResult> {
  const result = await execScript(sandbox, script, options);
  if (result.timedOut || result.exitCode !== 0) throw new SweStepError(step, result);
  return result;
}

/**
 * Puts the repository at `base_commit` into `/workspace/<name>` from its per-instance bundle
 * (history up to `base_commit` only) and runs the spec's setup commands there with the spec's
 * environment. Sandbox errors propagate; failed steps throw `SweStepError`.
 */
export async function materializeRepository(input: {
  sandbox: Sandbox;
  instance: TSweInstance;
  bundle: Uint8Array;
  spec: TSweRepoSpec;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<void> {
  const { sandbox, instance, timeoutMs, signal } = input;
  await sandbox.writeFile(SWE_FILES.bundle, input.bundle);
  await runStep(sandbox, CHECKOUT_STEP, materializeScript(instance.repo, instance.base_commit), {
    timeoutMs,
    signal,
  });
  for (const command of input.spec.setupCommands ?? []) {
    await runStep(sandbox, `setup command \`${command}\``, setupScript(instance.repo, command), {
      timeoutMs,
      signal,
      ...(input.spec.env !== undefined && { env: input.spec.env }),
    });
  }
}
