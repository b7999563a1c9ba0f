import { spawn } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT, TSX } from "./start-server";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `raas …` (apps/cli) as a child process in `cwd` with `env` on top of this process's
 * environment (and NO_COLOR), asynchronously: a long command must not stop a server the test
 * runs in this process from serving.
 */
export function runCli(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [TSX, join(REPO_ROOT, "apps/cli/src/main.ts"), ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}
