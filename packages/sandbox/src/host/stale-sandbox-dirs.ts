import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import type { SandboxHostStatus } from "@raas/engine";
import { isProcessAlive } from "./process-tree";
import { SandboxCgroup } from "./sandbox-cgroup";
import { readOwnerFile, type SandboxDirOwner } from "./sandbox-dir-owner";
import { readSandboxCgroups, removeSandboxDirsSync } from "./sandbox-dirs";

/** This process, as the owner of the directories it creates. */
export interface ThisHost {
  pid: number;
  hostname: string;
}

function thisHost(): ThisHost {
  return { pid: process.pid, hostname: hostname() };
}

function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the owner's process still runs on this node (by pid and start time where recorded). */
function isOwnerProcessAlive(owner: SandboxDirOwner): boolean {
  return owner.hostProcess !== undefined ? isProcessAlive(owner.hostProcess) : isPidAlive(owner.hostPid);
}

/**
 * Whether a directory's owner is dead, so the directory may go. Pure but for `isAlive`.
 * - This process's own: never.
 * - On this node: when its process is gone — unless the store says its host is live (a process
 *   of the same name in another pid namespace).
 * - On another node (a shared file system): only when the store says its host is gone (lost or
 *   stopped); a pid means nothing here.
 */
export function isOwnerDead(
  owner: SandboxDirOwner,
  here: ThisHost,
  status: SandboxHostStatus,
  isAlive: (owner: SandboxDirOwner) => boolean = isOwnerProcessAlive,
): boolean {
  const isThisNode = owner.hostname === undefined || owner.hostname === here.hostname;
  if (isThisNode) {
    if (owner.hostPid === here.pid) return false;
    return status !== "live" && !isAlive(owner);
  }
  return status === "gone";
}

function removeStaleDir(root: string): void {
  SandboxCgroup.removeDirs(readSandboxCgroups(root));
  removeSandboxDirsSync(root);
}

function ownedDirs(baseDir: string, prefix: string): Array<{ root: string; owner: SandboxDirOwner }> {
  let names: string[];
  try {
    names = readdirSync(baseDir);
  } catch {
    return []; // Gone, or not this process's to read.
  }
  const dirs: Array<{ root: string; owner: SandboxDirOwner }> = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const root = join(baseDir, name);
    const owner = readOwnerFile(root);
    if (owner) dirs.push({ root, owner });
  }
  return dirs;
}

/**
 * Removes the sandbox directories of host processes on this node that died without cleaning up
 * (SIGKILL, power loss), knowing nothing of the store (a runtime's start). Their sandboxes are
 * already dead: bwrap runs with --die-with-parent. Directories of live processes, and those of
 * other nodes, are never touched.
 */
export function reapStaleSandboxDirs(baseDir: string, prefix: string): string[] {
  const removed: string[] = [];
  const here = thisHost();
  for (const { root, owner } of ownedDirs(baseDir, prefix)) {
    if (!isOwnerDead(owner, here, "unknown")) continue;
    removeStaleDir(root);
    removed.push(root);
  }
  return removed;
}

/**
 * Removes the sandbox directories whose owner is dead (`isOwnerDead`), asking the store about
 * each owner's host once: a base directory shared by nodes loses a dead node's directories too.
 */
export async function reapDeadHostSandboxDirs(
  baseDir: string,
  prefix: string,
  hostStatus: (hostId: string) => Promise<SandboxHostStatus>,
): Promise<string[]> {
  const statuses = new Map<string, Promise<SandboxHostStatus>>();
  const statusOf = (hostId: string | null | undefined): Promise<SandboxHostStatus> => {
    if (!hostId) return Promise.resolve("unknown");
    let status = statuses.get(hostId);
    if (!status) {
      // A store that cannot answer knows nothing: only this node's own evidence counts then.
      status = hostStatus(hostId).catch((): SandboxHostStatus => "unknown");
      statuses.set(hostId, status);
    }
    return status;
  };
  const removed: string[] = [];
  const here = thisHost();
  for (const { root, owner } of ownedDirs(baseDir, prefix)) {
    if (owner.hostPid === here.pid && (owner.hostname ?? here.hostname) === here.hostname) continue;
    if (!isOwnerDead(owner, here, await statusOf(owner.hostId))) continue;
    SandboxCgroup.removeDirs(readSandboxCgroups(root));
    // Off the event loop: a workspace may hold gigabytes, and this runs beside live work.
    await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    removed.push(root);
  }
  return removed;
}
