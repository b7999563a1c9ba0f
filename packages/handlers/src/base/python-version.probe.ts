import type { Sandbox } from "@raas/engine";

/** The sandbox's `python3` version (e.g. `3.11.2`), recorded in evaluation results; null when absent. */
export async function probePythonVersion(sandbox: Sandbox, signal: AbortSignal): Promise<string | null> {
  const result = await sandbox.runTool(
    "bash",
    { command: "python3 -c 'import sys; print(sys.version.split()[0])'" },
    { timeoutMs: 20_000, signal },
  );
  const version = /\d+\.\d+\.\d+\S*/.exec(result.output)?.[0];
  return result.exitCode === 0 && version ? version : null;
}
