import type { ChildProcess } from "node:child_process";
import { sandboxFailure } from "@raas/shared";
import { EXEC_READY_LINE } from "../protocol/exec-protocol.types";

/**
 * Resolves when the launched execution server prints its ready line (it does so right after
 * its socket listens): an event, not a sleep or a poll. Rejects with the launcher's stderr
 * when it exits first, on timeout, or when the caller aborts.
 */
export function waitForReadyLine(
  child: ChildProcess,
  options: { timeoutMs: number; signal?: AbortSignal; stderrTail: () => string },
): Promise<void> {
  const { timeoutMs, signal, stderrTail } = options;
  return new Promise((resolve, reject) => {
    let buffered = "";
    const finish = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.removeListener("data", onData);
      child.removeListener("exit", onExit);
      signal?.removeEventListener("abort", onAbort);
      child.stdout?.resume(); // Keep draining so a chatty server never blocks on a full pipe.
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      if (buffered.includes(`${EXEC_READY_LINE}\n`)) finish();
    };
    const onExit = (code: number | null, exitSignal: NodeJS.Signals | null) =>
      finish(
        sandboxFailure(
          "start_failed",
          `sandbox launcher exited before ready (code ${code}, signal ${exitSignal}): ${stderrTail().trim()}`,
        ),
      );
    const onAbort = () => finish(sandboxFailure("start_failed", "sandbox creation was cancelled"));
    const timer = setTimeout(
      () =>
        finish(
          sandboxFailure(
            "not_ready",
            `execution server not ready after ${timeoutMs} ms: ${stderrTail().trim()}`,
          ),
        ),
      timeoutMs,
    );
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}
