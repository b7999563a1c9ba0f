import type { Sandbox } from "@raas/engine";
import { stageFailure } from "@raas/shared";
import { HARBOR_WORKSPACE } from "./harbor-dockerfile";

/**
 * Copies the image's workdir (what the Dockerfile put in `/app`) into the sandbox workspace that
 * stands for it, so the agent works on, and the verifier sees, a writable copy; the image itself
 * stays read-only and shared. Nothing to copy when the workdir is the workspace itself or the
 * image has no such directory. Modes and times are kept; owners cannot be (one uid).
 */
export async function copyImageWorkdir(
  sandbox: Sandbox,
  workdir: string,
  signal: AbortSignal,
): Promise<void> {
  if (workdir === HARBOR_WORKSPACE) return;
  const script = 'if [ -d "$1" ]; then cp -R --preserve=mode,timestamps -- "$1"/. "$2"/; fi';
  const run = await sandbox.exec(["sh", "-c", script, "sh", workdir, HARBOR_WORKSPACE], {
    timeoutMs: 300_000,
    signal,
  });
  if (run.exitCode !== 0)
    throw stageFailure(
      "sandbox",
      `copying the image's workdir ${workdir} into the workspace failed: ${run.stderr}`,
    );
}
