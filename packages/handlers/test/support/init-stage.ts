// Test helpers for a handler's INIT stage outside the engine: the stage context of one job (its
// job-end cleanups run by `endJob`) and a shell command in a sandbox that must succeed.
import type { Cleanup, JobRecord, Sandbox, StageContext } from "@raas/engine";

/** A StageContext for one job's INIT; `endJob` runs its job-end cleanups, newest first. */
export function initStageContext<P>(
  job: { id: string; groupId: string | null },
  payload: P,
  controller = new AbortController(),
): { ctx: StageContext<P>; controller: AbortController; endJob: () => Promise<void> } {
  const jobEnd: Cleanup[] = [];
  const ctx: StageContext<P> = {
    job: job as unknown as JobRecord,
    payload,
    stage: "init",
    signal: controller.signal,
    defer: () => undefined,
    deferToJobEnd: (cleanup) => jobEnd.push(cleanup),
    record: { turn: () => undefined, toolCall: () => undefined, sandboxEvent: () => undefined },
  };
  return {
    ctx,
    controller,
    endJob: async () => {
      for (const cleanup of jobEnd.reverse()) await cleanup();
    },
  };
}

/** Runs `script` with bash in the sandbox; its stdout, or an error with its stderr. */
export async function sh(sandbox: Sandbox, script: string): Promise<string> {
  const result = await sandbox.exec(["bash", "-c", script]);
  if (result.exitCode !== 0) throw new Error(`${script}: ${result.stderr}`);
  return result.stdout;
}
