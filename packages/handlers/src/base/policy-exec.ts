import {
  asStageFailure,
  policyFaultOf,
  type Sandbox,
  type SandboxExecOptions,
  type SandboxExecResult,
} from "@raas/engine";
import { policyFailure } from "@raas/shared";

/**
 * Runs a command that is the policy's own action (a harness: the agent program the policy drives)
 * rather than a handler's step. A sandbox error that carries the policy-fault mark (the command hit
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
    const fault = options.signal.aborted ? null : policyFaultOf(error);
    if (fault !== null) throw policyFailure(fault.reason, { cause: error });
    return asStageFailure("sandbox", `sandbox command ${argv[0] ?? ""} failed`, options.signal, () =>
      Promise.reject(error),
    );
  }
}
