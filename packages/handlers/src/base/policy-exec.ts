import { asStageFailure, type Sandbox, type SandboxExecOptions, type SandboxExecResult } from "@raas/engine";
import { failureOf, policyFailure } from "@raas/shared";

/**
 * Runs a command that is the policy's own action (a harness: the agent program the policy drives)
 * rather than a handler's step. A sandbox failure blamed on the policy (the command hit
 * a resource limit, killed its tools or the execution server) fails the stage as the policy's
 * (`agent`: trainable); any other error is infrastructure (`sandbox`), as with `guardSandbox`.
 */
export async function execPolicyCommand(
  sandbox: Sandbox,
  argv: string[],
  options: SandboxExecOptions & { signal: AbortSignal },
): Promise<SandboxExecResult> {
  try {
    return await sandbox.exec(argv, options);
  } catch (error) {
    const blamed = options.signal.aborted ? null : failureOf(error, "policy");
    if (blamed?.kind === "sandbox-error")
      throw policyFailure(blamed.policyReason ?? blamed.message, { cause: error });
    return asStageFailure("sandbox", `sandbox command ${argv[0] ?? ""} failed`, options.signal, () =>
      Promise.reject(error),
    );
  }
}
