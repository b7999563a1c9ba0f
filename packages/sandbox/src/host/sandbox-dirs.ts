import { readFileSync, rmSync } from "node:fs";
import { chown, lchown, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { writeOwnerFile } from "./sandbox-dir-owner";

/** Host-side directories of one sandbox. Everything lives under `root`, removed on close. */
export interface SandboxDirs {
  root: string;
  /** Bound read-write as the sandbox's workspace. */
  workspace: string;
  /** Bound read-write for the server's socket and scratch files. */
  run: string;
  /** Host path of the execution server's socket. */
  socket: string;
}

/**
 * Subdirectory of the run directory shared with the host for Unix sockets the host listens on
 * (`Sandbox.hostChannel`). Jailed processes see it read-only: they can connect, not replace.
 */
export const HOST_CHANNEL_SUBDIR = "channel";

const CGROUPS_FILE = "cgroups.json";

/** Records a sandbox's cgroup directories, so a reaper can remove them if its host dies. */
export async function recordSandboxCgroups(root: string, cgroupDirs: readonly string[]): Promise<void> {
  await writeFile(join(root, CGROUPS_FILE), JSON.stringify(cgroupDirs));
}

/** The cgroup directories recorded for a sandbox; none when nothing was recorded. */
export function readSandboxCgroups(root: string): string[] {
  try {
    return JSON.parse(readFileSync(join(root, CGROUPS_FILE), "utf8")) as string[];
  } catch {
    return [];
  }
}

/**
 * Creates the directories of a sandbox, writes its initial files and hands both to the
 * sandbox's uid (when the sandbox runs as another user than the host process). `hostId` (this
 * process's worker id) goes into the owner file, for whoever reaps the directory of a dead host.
 * Runs off the event loop; a failure removes what it made before it rethrows.
 */
export async function createSandboxDirs(
  baseDir: string,
  id: string,
  files: Record<string, string | Uint8Array> | undefined,
  owner: { uid: number; gid: number } | undefined,
  hostId: string | null = null,
): Promise<SandboxDirs> {
  const root = join(baseDir, id);
  const dirs = {
    root,
    workspace: join(root, "workspace"),
    run: join(root, "run"),
    socket: join(root, "run", "exec.sock"),
  };
  await mkdir(dirs.workspace, { recursive: true, mode: 0o755 });
  try {
    await populate(dirs, files, owner, hostId);
  } catch (error) {
    await removeSandboxDirs(root);
    throw error;
  }
  return dirs;
}

/** Writes files (workspace-relative path → contents) into a workspace, owned by `owner` when given. */
export async function writeWorkspaceFiles(
  workspace: string,
  files: Record<string, string | Uint8Array> | undefined,
  owner?: { uid: number; gid: number },
): Promise<void> {
  for (const [path, contents] of Object.entries(files ?? {})) {
    const target = resolve(workspace, path);
    const rel = relative(workspace, target);
    if (rel.startsWith("..") || rel === "") throw new Error(`initial file ${path} is outside the workspace`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, contents);
    if (owner) {
      for (let at = target; at !== workspace; at = dirname(at)) await lchown(at, owner.uid, owner.gid);
    }
  }
}

async function populate(
  dirs: SandboxDirs,
  files: Record<string, string | Uint8Array> | undefined,
  owner: { uid: number; gid: number } | undefined,
  hostId: string | null,
): Promise<void> {
  const { root } = dirs;
  await mkdir(dirs.run, { mode: 0o700 });
  await mkdir(join(dirs.run, HOST_CHANNEL_SUBDIR), { mode: 0o755 });
  await writeOwnerFile(root, hostId);
  await writeWorkspaceFiles(dirs.workspace, files);
  if (owner) {
    await chownTree(dirs.workspace, owner.uid, owner.gid);
    await chown(dirs.run, owner.uid, owner.gid);
    await chown(join(dirs.run, HOST_CHANNEL_SUBDIR), owner.uid, owner.gid);
  }
}

async function chownTree(path: string, uid: number, gid: number): Promise<void> {
  await lchown(path, uid, gid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) await chownTree(full, uid, gid);
    else await lchown(full, uid, gid);
  }
}

const REMOVE_OPTIONS = { recursive: true, force: true, maxRetries: 5, retryDelay: 20 } as const;

/** Removes a sandbox's directories off the event loop; retries because a dying process may still be writing. */
export async function removeSandboxDirs(root: string): Promise<void> {
  await rm(root, REMOVE_OPTIONS);
}

/** {@link removeSandboxDirs} for exit handlers and start-up, which cannot await. */
export function removeSandboxDirsSync(root: string): void {
  rmSync(root, REMOVE_OPTIONS);
}
