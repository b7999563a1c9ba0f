import { chownSync, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
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

  static create(
    id: string,
    limits: CgroupLimits,
    owner: { uid: number; gid: number } | undefined,
  ): SandboxCgroup | undefined {
    const wanted: Array<Controller["name"]> = [];
    if (limits.maxTasks !== undefined) wanted.push("pids");
    if (limits.memoryBytes !== undefined) wanted.push("memory");
    const controllers: Controller[] = [];
    try {
      for (const name of wanted) {
        const parent = ownCgroupDir(name);
        if (!parent) continue;
        const dir = join(parent, `raas-${id}`);
        mkdirSync(dir);
        controllers.push({ name, dir });
        if (name === "pids") writeFileSync(join(dir, "pids.max"), String(limits.maxTasks));
        if (name === "memory") {
          writeFileSync(join(dir, "memory.limit_in_bytes"), String(limits.memoryBytes));
          // Without this, a sandbox at its limit could push the excess into swap.
          const swap = join(dir, "memory.memsw.limit_in_bytes");
          if (existsSync(swap)) writeFileSync(swap, String(limits.memoryBytes));
        }
        if (owner) chownSync(join(dir, "cgroup.procs"), owner.uid, owner.gid);
      }
    } catch {
      for (const controller of controllers) tryRmdir(controller.dir);
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
        const parent = ownCgroupDir(name);
        if (!parent) return false;
        const dir = join(parent, `raas-probe-${process.pid}-${Date.now().toString(36)}`);
        mkdirSync(dir);
        return tryRmdir(dir);
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
    for (const dir of dirs) if (/\/raas-sbx-[\w-]+$/.test(dir)) tryRmdir(dir);
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
  remove(): boolean {
    let isRemoved = true;
    for (const controller of this.#controllers) isRemoved = tryRmdir(controller.dir) && isRemoved;
    return isRemoved;
  }
}

/** This process's cgroup directory in a v1 hierarchy, if that hierarchy is mounted. */
function ownCgroupDir(controller: string): string | undefined {
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers, path] = line.split(":");
    if (!controllers?.split(",").includes(controller) || path === undefined) continue;
    const dir = join(V1_MOUNT, controller, path);
    return existsSync(join(dir, "cgroup.procs")) ? dir : undefined;
  }
  return undefined;
}

function counter(text: string, key: string): number {
  return Number(new RegExp(`^${key} (\\d+)`, "m").exec(text)?.[1] ?? 0);
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
