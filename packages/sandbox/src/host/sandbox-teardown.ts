import { isProcessAlive, killPids, processIdentity } from "./process-tree";
import type { SandboxCgroup } from "./sandbox-cgroup";
import { removeSandboxDirsSync } from "./sandbox-dirs";

/** What a sandbox's teardown kills: its processes as of now, its launcher's end, its cgroups. */
export interface SandboxKillTarget {
  /** Host pids of every process of the sandbox right now (a fresh /proc scan and the cgroups). */
  processIds: () => number[];
  /** Settles once the launcher process has exited. */
  exited: Promise<void>;
  cgroup: SandboxCgroup | undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGKILLs every process of a sandbox, waits (bounded) until each one seen is really gone, not
 * merely signalled, and removes its cgroups. Processes forked meanwhile are found by fresh scans.
 * Returns how many processes seen at the start are still alive (0 normally).
 */
export async function killSandboxProcesses(target: SandboxKillTarget): Promise<number> {
  const pids = target.processIds();
  const identities = pids.map(processIdentity).filter((id): id is string => id !== undefined);
  killPids(pids);
  await Promise.race([target.exited, pause(2_000)]);
  const { cgroup } = target;
  const isAnyAlive = () => identities.some(isProcessAlive) || (cgroup?.pids().length ?? 0) > 0;
  for (let attempt = 0; attempt < 200 && isAnyAlive(); attempt += 1) {
    killPids(target.processIds());
    await pause(10);
  }
  for (let attempt = 0; attempt < 100 && cgroup && !(await cgroup.remove()); attempt += 1) {
    await pause(10);
  }
  return identities.filter(isProcessAlive).length;
}

/**
 * Kills and removes a sandbox from an exit handler, which cannot await: kills its processes,
 * removes its directories, and waits synchronously, briefly (bounded at 500 ms), for its cgroups
 * to empty (a cgroup empties only once its killed processes are reaped).
 */
export function killSandboxSync(target: Omit<SandboxKillTarget, "exited">, root: string): void {
  killPids(target.processIds());
  removeSandboxDirsSync(root);
  const { cgroup } = target;
  const wait = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; attempt < 50 && cgroup && !cgroup.removeSync(); attempt += 1)
    Atomics.wait(wait, 0, 0, 10);
}
