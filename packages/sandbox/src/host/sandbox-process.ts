import type { SandboxProcess, SandboxProcessExit, SandboxSpawnOptions } from "@raas/engine";
import type { ExecEvent } from "../protocol/exec-protocol.types";
import type { ExecClient } from "./exec-client";
import { callExecServer } from "./exec-request";

/**
 * Starts `argv` as a long-lived process through the execution server (`Sandbox.spawn`):
 * resolves once it runs, or rejects when it cannot start. Stdout chunks that arrive before a
 * listener is added are kept for it, so none is lost. A failure of the sandbox under it (the
 * connection lost, the sandbox closed) is reported as the exit's `sandboxError`, as `blame`
 * attributes it (to the policy when a limit the agent used up closed the sandbox).
 */
export function spawnSandboxProcess(
  client: ExecClient,
  argv: readonly string[],
  options: SandboxSpawnOptions,
  blame: (error: unknown) => unknown,
): Promise<SandboxProcess> {
  let requestId: number | undefined;
  const pending: Uint8Array[] = [];
  const listeners: ((chunk: Uint8Array) => void)[] = [];
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const onEvent = (event: ExecEvent) => {
    if (event.event === "started") markStarted();
    else {
      const chunk = new Uint8Array(Buffer.from(event.dataB64, "base64"));
      if (listeners.length === 0) pending.push(chunk);
      for (const listener of listeners) listener(chunk);
    }
  };
  const kill = async () => {
    if (requestId === undefined) return;
    await client.request({ op: "cancel", targetId: requestId }).catch(() => undefined);
  };
  const body = {
    op: "spawn" as const,
    argv: [...argv],
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
  };
  const run = callExecServer(() =>
    client.request(
      body,
      (id) => {
        requestId = id;
      },
      onEvent,
    ),
  );
  const exited: Promise<SandboxProcessExit> = run.then(
    (result) => result,
    (error: unknown) => ({ exitCode: null, signal: null, stderrTail: "", sandboxError: blame(error) }),
  );
  options.signal?.addEventListener("abort", () => void kill(), { once: true });
  const spawned: SandboxProcess = {
    async write(data) {
      if (requestId === undefined) throw new Error("the process has not started");
      const dataB64 = Buffer.from(data).toString("base64");
      await callExecServer(() => client.request({ op: "stdin", targetId: requestId as number, dataB64 }));
    },
    onStdout(listener) {
      listeners.push(listener);
      for (const chunk of pending.splice(0)) listener(chunk);
    },
    exited,
    kill,
  };
  // Whichever comes first: it runs, or it could not start (its request failed).
  return Promise.race([started.then(() => spawned), run.then(() => spawned)]);
}
