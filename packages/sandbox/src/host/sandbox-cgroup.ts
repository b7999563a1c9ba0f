import { existsSync, mkdirSync, readFileSync, rmdirSync } from "node:fs";
import { access, chown, mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Limits enforced through cgroups (whole-sandbox totals, unlike the per-process rlimits). */
export interface CgroupLimits {
  /** pids.max: tasks (processes and threads) in the whole sandbox. */
  maxTasks?: number;
  /** Memory limit of the whole sandbox in bytes (RSS plus page cache). */
  memoryBytes?: number;
}

interface Controller {
  name: "pids" | "memory";
  dir: string;
}

const V1_MOUNT = "/sys/fs/cgroup";

/**
 * Per-sandbox cgroups (v1 `pids` and `memory` hierarchies), created *below this process's
 * own cgroup* so whatever accounts for the host keeps accounting for its sandboxes. Used
 * where the hierarchy is writable (root, or a delegated subtree); otherwise `create`
 * returns undefined and the rlimits alone apply.
 */
export class SandboxCgroup {
  readonly #controllers: Controller[];

  private constructor(controllers: Controller[]) {
    this.#controllers = controllers;
  }

  /** Creates the cgroups off the event loop; undefined when none could be made (rlimits alone apply). */
  static async create(
    id: string,
    limits: CgroupLimits,
    owner: { uid: number; gid: number } | undefined,
  ): Promise<SandboxCgroup | undefined> {
    const wanted: Array<Controller["name"]> = [];
    if (limits.maxTasks !== undefined) wanted.push("pids");
    if (limits.memoryBytes !== undefined) wanted.push("memory");
    const controllers: Controller[] = [];
    try {
      for (const name of wanted) {
        const parent = await ownCgroupDir(name);
        if (!parent) continue;
        const dir = join(parent, `raas-${id}`);
        await mkdir(dir);
        controllers.push({ name, dir });
        await writeLimits(name, dir, limits);
        if (owner) await chown(join(dir, "cgroup.procs"), owner.uid, owner.gid);
      }
    } catch {
      for (const controller of controllers) await tryRmdir(controller.dir);
      return undefined;
    }
    return controllers.length > 0 ? new SandboxCgroup(controllers) : undefined;
  }

  /** Whether this sandbox has a cgroup of the given controller (its limit is then a whole-sandbox total). */
  controls(name: Controller["name"]): boolean {
    return this.#controllers.some((controller) => controller.name === name);
  }

  /**
   * Which controllers a sandbox cgroup could be made in right now: creates and removes an empty
   * probe cgroup per controller. For reports; `create` decides again for each sandbox.
   */
  static probe(): { pids: boolean; memory: boolean } {
    const canCreate = (name: Controller["name"]) => {
      try {
        const parent = ownCgroupDirSync(name);
        if (!parent) return false;
        const dir = join(parent, `raas-probe-${process.pid}-${Date.now().toString(36)}`);
        mkdirSync(dir);
        return tryRmdirSync(dir);
      } catch {
        return false;
      }
    };
    return { pids: canCreate("pids"), memory: canCreate("memory") };
  }

  /** The cgroup directories, recorded beside the sandbox so a later reaper can remove them. */
  get dirs(): string[] {
    return this.#controllers.map((controller) => controller.dir);
  }

  /** Removes cgroup directories left by a dead host; rmdir fails harmlessly on a busy cgroup. */
  static removeDirs(dirs: readonly string[]): void {
    for (const dir of dirs) if (/\/raas-sbx-[\w-]+$/.test(dir)) tryRmdirSync(dir);
  }

  /** cgroup.procs files the launcher must join before it starts anything. */
  get procsFiles(): string[] {
    return this.#controllers.map((controller) => join(controller.dir, "cgroup.procs"));
  }

  /** Every pid in the sandbox's cgroups, however it was started or reparented. */
  pids(): number[] {
    const pids = new Set<number>();
    for (const file of this.procsFiles) {
      try {
        for (const line of readFileSync(file, "utf8").split("\n")) if (line) pids.add(Number(line));
      } catch {
        // Removed already.
      }
    }
    return [...pids];
  }

  /** Times the pids limit refused a fork, and OOM kills inside the memory limit. */
  counters(): { pidsLimitHits: number; oomKills: number } {
    let pidsLimitHits = 0;
    let oomKills = 0;
    for (const { name, dir } of this.#controllers) {
      try {
        if (name === "pids") pidsLimitHits = counter(readFileSync(join(dir, "pids.events"), "utf8"), "max");
        else oomKills = counter(readFileSync(join(dir, "memory.oom_control"), "utf8"), "oom_kill");
      } catch {
        // Removed already.
      }
    }
    return { pidsLimitHits, oomKills };
  }

  /**
   * Removes the cgroups; true when all are gone. A cgroup stays busy until its killed
   * processes have been reaped, which can lag their death a little, so callers retry.
   */
  async remove(): Promise<boolean> {
    let isRemoved = true;
    for (const controller of this.#controllers) isRemoved = (await tryRmdir(controller.dir)) && isRemoved;
    return isRemoved;
  }

  /** {@link SandboxCgroup.remove} for exit handlers, which cannot await. */
  removeSync(): boolean {
    let isRemoved = true;
    for (const controller of this.#controllers) isRemoved = tryRmdirSync(controller.dir) && isRemoved;
    return isRemoved;
  }
}

async function writeLimits(name: Controller["name"], dir: string, limits: CgroupLimits): Promise<void> {
  if (name === "pids") await writeFile(join(dir, "pids.max"), String(limits.maxTasks));
  if (name === "memory") {
    await writeFile(join(dir, "memory.limit_in_bytes"), String(limits.memoryBytes));
    // Without this, a sandbox at its limit could push the excess into swap.
    const swap = join(dir, "memory.memsw.limit_in_bytes");
    if (await exists(swap)) await writeFile(swap, String(limits.memoryBytes));
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** This process's cgroup directory in a v1 hierarchy, if that hierarchy is mounted. */
async function ownCgroupDir(controller: string): Promise<string | undefined> {
  const dir = cgroupDirIn(await readFile("/proc/self/cgroup", "utf8"), controller);
  return dir !== undefined && (await exists(join(dir, "cgroup.procs"))) ? dir : undefined;
}

function ownCgroupDirSync(controller: string): string | undefined {
  const dir = cgroupDirIn(readFileSync("/proc/self/cgroup", "utf8"), controller);
  return dir !== undefined && existsSync(join(dir, "cgroup.procs")) ? dir : undefined;
}

/** Where `controller`'s line of a /proc/<pid>/cgroup text puts the process (v1 mount). */
function cgroupDirIn(procCgroup: string, controller: string): string | undefined {
  for (const line of procCgroup.split("\n")) {
    const [, controllers, path] = line.split(":");
    if (!controllers?.split(",").includes(controller) || path === undefined) continue;
    return join(V1_MOUNT, controller, path);
  }
  return undefined;
}

function counter(text: string, key: string): number {
  return Number(new RegExp(`^${key} (\\d+)`, "m").exec(text)?.[1] ?? 0);
}

async function tryRmdir(dir: string): Promise<boolean> {
  try {
    await rmdir(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

function tryRmdirSync(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
