import { chmod, chown, copyFile, lstat } from "node:fs/promises";
import { join } from "node:path";

/**
 * Copies `source` into the sandbox's own host directory as `name`, execute-only (mode 0111) and
 * owned by the sandbox's host uid: a process that runs a file it cannot read is not dumpable, so
 * the tools (same uid) can neither ptrace it nor read its memory.
 */
export async function stageExecOnlyCopy(
  source: string,
  sandboxDir: string,
  name: string,
  owner: { uid: number; gid: number } | undefined,
): Promise<string> {
  const copy = join(sandboxDir, name);
  await copyFile(source, copy);
  if (owner) await chown(copy, owner.uid, owner.gid);
  await chmod(copy, 0o111);
  return copy;
}

/**
 * An execute-only copy of an image's bash in the sandbox's own host directory, for the agent's
 * shell: a process that runs a file it cannot read is not dumpable, so the tools (same uid) can
 * neither ptrace the shell nor read its memory and the end-marker nonce it holds — as the host's
 * execute-only bash does for sandboxes on the host's root filesystem. Undefined when the image's
 * `/usr/bin/bash` is no regular file (the shell then runs the image's own, dumpable).
 */
export async function stageImageShell(
  rootfs: string,
  sandboxDir: string,
  owner: { uid: number; gid: number } | undefined,
): Promise<string | undefined> {
  const source = join(rootfs, "usr/bin/bash");
  const info = await lstat(source).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return stageExecOnlyCopy(source, sandboxDir, "image-bash", owner);
}
