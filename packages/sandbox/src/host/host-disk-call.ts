import { blamePolicy, type FailureError, type SandboxFailureData, sandboxFailure } from "@raas/shared";
import { blameFullHostDisk } from "./host-disk-decision";
import type { HostDiskMonitor, HostDiskWatch } from "./host-disk-monitor";
import { isSandboxFailure } from "./sandbox-failure";
import type { WorkspaceUsage } from "./watchdog-decision";

/** One sandbox, as a call watched for a full host disk needs to know it. */
export interface HostDiskCallContext {
  /** The runtime's monitor; none: the call runs unwatched. */
  monitor: HostDiskMonitor | undefined;
  measureWorkspace: () => Promise<WorkspaceUsage>;
  workspaceSizeBytes: number | undefined;
  /** Set when a limit the policy used up closed the sandbox: that explains any failure already. */
  limitClosure: () => string | undefined;
  /** The host filled its disk: reported, and the call fails as infrastructure. */
  onHostFull: (detail: Record<string, unknown>) => void;
  /** The policy filled the disk: its limit, so the sandbox closes as for an over-quota workspace. */
  onPolicyFull: (reason: string, detail: Record<string, unknown>) => void;
}

/**
 * Runs a call that may write to the host's disk (a tool, a command, a file upload) while the
 * host's disk monitor watches the disk holding the sandbox. A call during which it was full may
 * have lost writes (an empty file where a solution should be) and is no outcome of the
 * policy's: it fails with `host_disk_full`, infrastructure unless the policy filled the disk
 * itself (see `blameFullHostDisk`). A call the disk was already full for is not sent at all.
 */
export async function callWatchingHostDisk<T>(
  context: HostDiskCallContext,
  call: () => Promise<T>,
): Promise<T> {
  if (!context.monitor) return call();
  const watch = context.monitor.watch(context.measureWorkspace);
  let outcome: { value: T } | { error: unknown } | undefined;
  if (!watch.fullAtStart) {
    try {
      outcome = { value: await call() };
    } catch (error) {
      outcome = { error };
    }
  }
  const fault = await hostDiskFault(
    context,
    watch,
    outcome && "error" in outcome ? outcome.error : undefined,
  );
  if (fault) throw fault;
  if (outcome && "value" in outcome) return outcome.value;
  throw (outcome as { error: unknown }).error;
}

/** The error a call fails with when the host's disk was full during it; undefined when it was not. */
async function hostDiskFault(
  context: HostDiskCallContext,
  watch: HostDiskWatch,
  callError: unknown,
): Promise<FailureError<SandboxFailureData> | undefined> {
  const full = await watch.end();
  if (!full) return undefined;
  // A limit the policy used up, or its own marked fault, explains the failure already.
  if (isSandboxFailure(callError) && callError.failure.cause === "policy") return undefined;
  if (context.limitClosure()) return undefined;
  const { workspaceSizeBytes } = context;
  const fault = blameFullHostDisk({
    sample: full.sample,
    workspace: full.workspace,
    ...(workspaceSizeBytes !== undefined ? { workspaceSizeBytes } : {}),
  });
  const detail = {
    freeBytes: full.sample.freeBytes,
    totalBytes: full.sample.totalBytes,
    usedBytes: full.sample.usedBytes,
    workspaceBytes: full.workspace.bytes,
    ...(full.sample.freeInodes !== null ? { freeInodes: full.sample.freeInodes } : {}),
  };
  const error = sandboxFailure("host_disk_full", fault.reason, {
    details: detail,
    ...(callError !== undefined ? { cause: callError } : {}),
  });
  if (fault.blame === "host") {
    context.onHostFull(detail);
    return error;
  }
  context.onPolicyFull(fault.reason, detail);
  return blamePolicy(error, fault.reason);
}
