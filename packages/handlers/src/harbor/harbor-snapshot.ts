import type { Sandbox } from "@raas/engine";
import { policyFailure, stageFailure } from "@raas/shared";
import { HARBOR_WORKSPACE } from "./harbor-dockerfile";

/** Largest compressed workspace carried from RUN to the verifier's sandbox, in bytes (256 MiB). */
const MAX_SNAPSHOT_BYTES = 256 * 1024 ** 2;
/** Time the snapshot may take, in ms; a workspace that takes longer is the policy's doing. */
const SNAPSHOT_TIMEOUT_MS = 300_000;

const SNAPSHOT_SH = `set -o pipefail
tar -czf - --ignore-failed-read --warning=no-file-changed --warning=no-failed-read -C ${HARBOR_WORKSPACE} . | base64 -w0
status=$?
# GNU tar: 1 = a file changed while it was read; what could not be read was left out.
[ "$status" -le 1 ] && exit 0 || exit "$status"`;

/**
 * The agent's final workspace as a gzip tar, taken by a command of its own (not the agent's shell)
 * at the end of RUN. What the agent made unreadable is left out, as the agent's choice; a
 * workspace too large or too slow to take fails as the policy's (`agent`), since the task's own
 * files are small; a tar that cannot run is the sandbox's.
 */
export async function snapshotWorkspace(sandbox: Sandbox, signal: AbortSignal): Promise<Uint8Array> {
  const run = await sandbox.exec(["bash", "-c", SNAPSHOT_SH], {
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    maxOutputBytes: Math.ceil((MAX_SNAPSHOT_BYTES * 4) / 3) + 16,
    signal,
  });
  if (run.truncated || run.timedOut) {
    throw policyFailure(
      `the agent's workspace could not be carried to the verifier: ${run.timedOut ? `taking it ran past ${SNAPSHOT_TIMEOUT_MS / 1000}s` : `it is larger than ${MAX_SNAPSHOT_BYTES / 1024 ** 2} MiB compressed`}`,
    );
  }
  if (run.exitCode !== 0)
    throw stageFailure(
      "sandbox",
      `taking the workspace failed (exit ${run.exitCode}): ${run.stderr.slice(-400)}`,
    );
  return Buffer.from(run.stdout.trim(), "base64");
}
