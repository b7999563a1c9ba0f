import { spawn, spawnSync } from "node:child_process";

/** Fails with the install line when python3 (of at least `minor` 3.x) is missing. */
export function requirePython(minor = 9): void {
  const probe = spawnSync("python3", ["-c", `import sys; assert sys.version_info >= (3, ${minor})`], {
    encoding: "utf8",
  });
  if (probe.error || probe.status !== 0) {
    throw new Error(`python3 (3.${minor} or newer) is missing; install it with: apt-get install -y python3`);
  }
}

/** Runs python3 with `args` to its end; resolves its exit status and output (never rejects on a non-zero exit). */
export function runPython(
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", args, {
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1", ...env },
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
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
