import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { missingToolMessage } from "./image-tools";

/** Exit code `flock -n` gives when another process holds the lock. */
const BUSY_EXIT = 75;

/** A held lock; `release` is idempotent. */
export interface HeldLock {
  release(): Promise<void>;
}

/**
 * An exclusive flock(2) on `path` (created when missing), held by a `flock` child that lives
 * until `release` closes its stdin, or until this process dies in any way (even SIGKILL): the
 * kernel closes the pipe, the child exits and the lock goes with it — a crash never leaves a
 * lock behind. With `wait: false` resolves undefined at once when another process holds it.
 */
export function acquireFileLock(path: string, options: { wait: boolean }): Promise<HeldLock | undefined> {
  const args = [...(options.wait ? [] : ["--nonblock", "--conflict-exit-code", String(BUSY_EXIT)])];
  args.push("--exclusive", path, "sh", "-c", "echo locked && exec cat >/dev/null");
  return new Promise((resolve, reject) => {
    const child: ChildProcessWithoutNullStreams = spawn("flock", args, { stdio: ["pipe", "pipe", "pipe"] });
    let err = "";
    let isHeld = false;
    const exited = new Promise<void>((done) => child.once("close", () => done()));
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.once("data", () => {
      isHeld = true;
      let released: Promise<void> | undefined;
      resolve({
        release: () => {
          if (!released) {
            child.stdin.end();
            released = exited;
          }
          return released;
        },
      });
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "ENOENT" ? new Error(missingToolMessage("flock")) : error),
    );
    child.on("close", (code) => {
      if (isHeld) return;
      if (code === BUSY_EXIT) resolve(undefined);
      else reject(new Error(`flock ${path} failed (exit ${code}): ${err.trim()}`));
    });
  });
}
