import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { processIdentity } from "./process-tree";

const OWNER_FILE = "owner.json";

/** Who made a sandbox (or template) directory, as its `owner.json` says. */
export interface SandboxDirOwner {
  hostPid: number;
  /** `<pid>:<start ticks>`, so a reused pid is not taken for the owner. Absent in older files. */
  hostProcess?: string;
  /** The node the owner ran on. Absent in older files: then it is taken to be this node. */
  hostname?: string;
  /** The owner's sandbox host id (its worker id), which the store knows as lost, stopped or live. */
  hostId?: string | null;
  createdAtMs?: number;
}

/**
 * Marks `root` as this process's (its node, pid and start time, its host id), so that once this
 * process is gone any process that sees the directory can tell, and remove it.
 */
export async function writeOwnerFile(root: string, hostId: string | null): Promise<void> {
  ownIdentity ??= processIdentity(process.pid);
  const identity = ownIdentity;
  const owner: SandboxDirOwner = {
    hostPid: process.pid,
    ...(identity !== undefined && { hostProcess: identity }),
    hostname: hostname(),
    hostId,
    createdAtMs: Date.now(),
  };
  await writeFile(join(root, OWNER_FILE), JSON.stringify(owner));
}

/** This process's identity: its start time never changes, so /proc is read once. */
let ownIdentity: string | undefined;

/** The owner file of `root`, or null when there is none (yet) or it is unreadable. */
export function readOwnerFile(root: string): SandboxDirOwner | null {
  try {
    const owner = JSON.parse(readFileSync(join(root, OWNER_FILE), "utf8")) as SandboxDirOwner;
    return Number.isInteger(owner.hostPid) ? owner : null;
  } catch {
    return null; // No owner file yet: being created right now, or not ours.
  }
}
