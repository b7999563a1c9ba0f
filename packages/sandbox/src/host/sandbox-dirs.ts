import {
  chownSync,
  existsSync,
  lchownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { SandboxCgroup } from "./sandbox-cgroup";

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

const OWNER_FILE = "owner.json";
const CGROUPS_FILE = "cgroups.json";

/** Records a sandbox's cgroup directories, so a reaper can remove them if its host dies. */
export function recordSandboxCgroups(root: string, cgroupDirs: readonly string[]): void {
  writeFileSync(join(root, CGROUPS_FILE), JSON.stringify(cgroupDirs));
}

/**
 * Creates the directories of a sandbox, writes its initial files and hands both to the
 * sandbox's uid (when the sandbox runs as another user than the host process).
 */
export function createSandboxDirs(
  baseDir: string,
  id: string,
  files: Record<string, string | Uint8Array> | undefined,
  owner: { uid: number; gid: number } | undefined,
): SandboxDirs {
  const root = join(baseDir, id);
  const dirs = {
    root,
    workspace: join(root, "workspace"),
    run: join(root, "run"),
    socket: join(root, "run", "exec.sock"),
  };
  mkdirSync(dirs.workspace, { recursive: true, mode: 0o755 });
  try {
    populate(dirs, files, owner);
  } catch (error) {
    removeSandboxDirs(root);
    throw error;
  }
  return dirs;
}

/** Marks `root` as this process's, so `reapStaleSandboxDirs` removes it once this process is gone. */
export function writeOwnerFile(root: string): void {
  writeFileSync(join(root, OWNER_FILE), JSON.stringify({ hostPid: process.pid, createdAtMs: Date.now() }));
}

/** Writes files (workspace-relative path → contents) into a workspace, owned by `owner` when given. */
export function writeWorkspaceFiles(
  workspace: string,
  files: Record<string, string | Uint8Array> | undefined,
  owner?: { uid: number; gid: number },
): void {
  for (const [path, contents] of Object.entries(files ?? {})) {
    const target = resolve(workspace, path);
    const rel = relative(workspace, target);
    if (rel.startsWith("..") || rel === "") throw new Error(`initial file ${path} is outside the workspace`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, contents);
    if (owner) {
      for (let at = target; at !== workspace; at = dirname(at)) lchownSync(at, owner.uid, owner.gid);
    }
  }
}

function populate(
  dirs: SandboxDirs,
  files: Record<string, string | Uint8Array> | undefined,
  owner: { uid: number; gid: number } | undefined,
): void {
  const { root } = dirs;
  mkdirSync(dirs.run, { mode: 0o700 });
  mkdirSync(join(dirs.run, HOST_CHANNEL_SUBDIR), { mode: 0o755 });
  writeOwnerFile(root);
  writeWorkspaceFiles(dirs.workspace, files);
  if (owner) {
    chownTree(dirs.workspace, owner.uid, owner.gid);
    chownSync(dirs.run, owner.uid, owner.gid);
    chownSync(join(dirs.run, HOST_CHANNEL_SUBDIR), owner.uid, owner.gid);
  }
}

function chownTree(path: string, uid: number, gid: number): void {
  lchownSync(path, uid, gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) chownTree(full, uid, gid);
    else lchownSync(full, uid, gid);
  }
}

/** Removes a sandbox's directories; retries because a dying process may still be writing. */
export function removeSandboxDirs(root: string): void {
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
}

function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes sandbox directories left behind by host processes that died without cleaning up
 * (SIGKILL, power loss). Their sandboxes are already dead: bwrap runs with
 * --die-with-parent. Directories of live hosts are never touched.
 */
export function reapStaleSandboxDirs(baseDir: string, prefix: string): string[] {
  if (!existsSync(baseDir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(baseDir)) {
    if (!name.startsWith(prefix)) continue;
    const root = join(baseDir, name);
    try {
      const { hostPid } = JSON.parse(readFileSync(join(root, OWNER_FILE), "utf8")) as { hostPid: number };
      if (hostPid === process.pid || isPidAlive(hostPid)) continue;
    } catch {
      continue; // No owner file yet: being created right now, or not ours.
    }
    try {
      const cgroups = JSON.parse(readFileSync(join(root, CGROUPS_FILE), "utf8")) as string[];
      SandboxCgroup.removeDirs(cgroups);
    } catch {
      // No cgroups were recorded for this sandbox.
    }
    removeSandboxDirs(root);
    removed.push(root);
  }
  return removed;
}
