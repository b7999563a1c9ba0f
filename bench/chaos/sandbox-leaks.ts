// What sandboxes are still there once the cluster is idle: bubblewrap processes whose command
// line names a directory under the bench's sandbox disks (never another test's bwrap: they are
// found by path, not by name alone), and sandbox directories left in any worker's base directory.
// A sandbox is counted once however many processes it has.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readProcess } from "../../apps/server/test/distributed/support/process-tree";

/** Sandbox directories are `sbx-<base36 ms>-<8 hex>`; templates `sbx-tpl-…` are shared, not sandboxes. */
const SANDBOX_ID = /sbx-([0-9a-z]+)-[0-9a-f]{8}/;

export interface LeakedSandbox {
  id: string;
  /** When it was created (from its id), epoch ms; NaN when the id does not say. */
  createdAtMs: number;
  /** The worker base directory it belongs to, when known. */
  baseDir: string | null;
  processes: number;
  hasDirectory: boolean;
}

export function findLeakedSandboxes(disksRoot: string, baseDirs: readonly string[]): LeakedSandbox[] {
  const found = new Map<string, LeakedSandbox>();
  const entry = (id: string, baseDir: string | null): LeakedSandbox => {
    const known = found.get(id);
    if (known) {
      known.baseDir ??= baseDir;
      return known;
    }
    const time = SANDBOX_ID.exec(id)?.[1];
    const createdAtMs = time ? Number.parseInt(time, 36) : Number.NaN;
    const leak: LeakedSandbox = { id, createdAtMs, baseDir, processes: 0, hasDirectory: false };
    found.set(id, leak);
    return leak;
  };
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name));
    if (info?.comm !== "bwrap" || info.state === "Z") continue;
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ");
    } catch {
      continue;
    }
    if (!cmdline.includes(disksRoot)) continue;
    const id = SANDBOX_ID.exec(cmdline)?.[0] ?? `bwrap-pid-${name}`;
    entry(id, baseDirs.find((dir) => cmdline.includes(`${dir}/`)) ?? null).processes += 1;
  }
  for (const dir of baseDirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir))
      if (name.startsWith("sbx-") && !name.startsWith("sbx-tpl-")) entry(name, dir).hasDirectory = true;
  }
  return [...found.values()];
}
