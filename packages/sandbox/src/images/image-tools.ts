import { spawn } from "node:child_process";
import { findExecutable } from "../runtimes/find-executable";
import { SANDBOX_PATH } from "../runtimes/runtime-options";

/** The Debian package of each external tool the image cache runs. */
const APT_PACKAGE: Record<string, string> = {
  umoci: "umoci",
  skopeo: "skopeo",
  unsquashfs: "squashfs-tools",
  tar: "tar",
  flock: "util-linux",
  du: "coreutils",
};

/** A missing tool, as a sentence naming the package that provides it. */
export function missingToolMessage(tool: string): string {
  const apt = APT_PACKAGE[tool] ?? tool;
  return `\`${tool}\` is not installed (needed to unpack images): run \`apt-get install -y ${apt}\``;
}

/**
 * Runs `tool args…` (from the system directories) to completion; rejects with its stderr's tail
 * when it fails and with {@link missingToolMessage} when it is not installed. Resolves with its
 * stdout. The tool gets SIGKILL when this process dies (`setpriv --pdeathsig`): an unpack
 * orphaned by a crash would go on writing into a directory the next process removes.
 */
export function runImageTool(tool: string, args: string[]): Promise<string> {
  const toolPath = findExecutable(tool, SANDBOX_PATH);
  if (toolPath === undefined) return Promise.reject(new Error(missingToolMessage(tool)));
  const setpriv = findExecutable("setpriv", SANDBOX_PATH);
  const [command, argv] = setpriv
    ? [setpriv, ["--pdeathsig", "KILL", "--", toolPath, ...args]]
    : [toolPath, args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-4_000);
    });
    child.on("error", reject);
    child.on("close", (code, exitSignal) => {
      if (code === 0) resolve(Buffer.concat(out).toString());
      else
        reject(new Error(`${tool} ${args[0] ?? ""} failed (${exitSignal ?? `exit ${code}`}): ${err.trim()}`));
    });
  });
}
