import { createServer } from "node:net";

/** Waits `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it), for a test's own server. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** True while a process with this pid exists (signal 0 reaches it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the process `pid` with `signal`, waits up to `graceMs` for it to go, then SIGKILLs it and
 * waits for that too. By pid only: a test never stops a process by name.
 */
export async function stopByPid(pid: number, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, signal);
  await waitForExit(pid, graceMs);
  if (!isAlive(pid)) return;
  process.kill(pid, "SIGKILL");
  await waitForExit(pid, 5_000);
}

async function waitForExit(pid: number, boundMs: number): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(25);
}
