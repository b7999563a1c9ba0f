import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dirname, "../../../..");
export const TSX = join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs");

/**
 * Starts the real server (apps/server) as a child process on a free port with `env` on top of
 * this process's environment, and resolves once it logs the address it listens on.
 */
export async function startServer(
  cwd: string,
  env: Record<string, string>,
): Promise<{ server: ChildProcess; url: string }> {
  const server = spawn(process.execPath, [TSX, join(REPO_ROOT, "apps/server/src/main.ts")], {
    cwd,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 150_000);
    server.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
  });
  return { server, url };
}
