import type { Sandbox, ToolResult } from "@raas/engine";
import type { TSweInstance } from "./swe-instance.schema";
import type { SweRepoSpec } from "./swe-options";
import { materializeScript, SWE_FILES, setupScript } from "./swe-shell-scripts";

/** A bash snippet failed (non-zero exit or its own timeout); carries the snippet's output. */
export class SweStepError extends Error {
  override readonly name = "SweStepError";
  constructor(
    readonly step: string,
    readonly result: ToolResult,
  ) {
    super(
      `${step} ${result.timedOut ? "timed out" : `exited with ${result.exitCode}`}: ${result.output.slice(-2_000).trim()}`,
    );
  }
}

/** Name of the checkout step in `SweStepError.step` (it fails when the bundle lacks base_commit). */
export const CHECKOUT_STEP = "checking out base_commit";

/** Runs a bash snippet; a non-zero exit or a timeout throws `SweStepError`. */
export async function runStep(
  sandbox: Sandbox,
  step: string,
  command: string,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<ToolResult> {
  const result = await sandbox.runTool("bash", { command }, options);
  if (result.timedOut || result.exitCode !== 0) throw new SweStepError(step, result);
  return result;
}

/**
 * Puts the repository at `base_commit` into `/workspace/<name>` from its bundle and runs the
 * repository's setup commands there. Sandbox errors propagate; failed steps throw `SweStepError`.
 */
export async function materializeRepository(input: {
  sandbox: Sandbox;
  instance: TSweInstance;
  bundle: Uint8Array;
  spec: SweRepoSpec;
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
    });
  }
}
