import { type ProcessTable, type SandboxProcessRef, SHARED_PROCESS_TABLE } from "./process-table";
import { isProcessAlive, killPids, processIdentity } from "./process-tree";
import type { SandboxCgroup } from "./sandbox-cgroup";
import { removeSandboxDirsSync } from "./sandbox-dirs";

/** What a sandbox's teardown kills: its processes, its launcher's end, its cgroups. */
export interface SandboxKillTarget {
  /**
   * Host pids of every process of the sandbox: its cgroups' read now, and its tree in a /proc
   * scan taken after `mark` (see `ProcessTableSnapshots.since`); a fresh scan without a mark.
   */
  processIds: (mark?: number) => number[];
  /** A point to pass to `processIds`: scans from here on are after it. */
  mark: () => number;
  /** Settles once the launcher process has exited. */
  exited: Promise<void>;
  cgroup: SandboxCgroup | undefined;
}

/**
 * The kill target of a sandbox whose processes `processesIn` finds in a table, scanned by the
 * process table every sandbox shares.
 */
export function sharedTableKillTarget(
  processesIn: (table: ProcessTable) => SandboxProcessRef[],
  cgroup: SandboxCgroup | undefined,
): Omit<SandboxKillTarget, "exited"> {
  const table = SHARED_PROCESS_TABLE;
  const scan = (mark?: number) => (mark === undefined ? table.fresh() : table.since(mark));
  return {
    processIds: (mark?: number) => processesIn(scan(mark)).map((process) => process.pid),
    mark: () => table.mark(),
    cgroup,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Time a teardown waits for the processes it killed to be gone, in ms (then it counts leftovers). */
const KILL_WAIT_MS = 2_000;

/**
 * SIGKILLs every process of a sandbox, waits (bounded) until each one seen is really gone, not
 * merely signalled, and removes its cgroups. Every kill is of what a scan taken after the
 * teardown began (or after the previous round's kill) lists, so a process forked meanwhile is
 * found; teardowns running at once share such scans, and the pause between rounds grows, since
 * each scan reads all of /proc on the event loop. Returns how many processes seen at the start
 * are still alive (0 normally).
 */
export async function killSandboxProcesses(target: SandboxKillTarget): Promise<number> {
  // Teardowns begun in one turn of the event loop (a step's end closes dozens of sandboxes)
  // share one scan, taken after every one of them began.
  const begunAt = target.mark();
  await new Promise((resolve) => setImmediate(resolve));
  const pids = target.processIds(begunAt);
  const identities = pids.map(processIdentity).filter((id): id is string => id !== undefined);
  let killedAt = target.mark();
  killPids(pids);
  await Promise.race([target.exited, pause(KILL_WAIT_MS)]);
  const { cgroup } = target;
  const isAnyAlive = () => identities.some(isProcessAlive) || (cgroup?.pids().length ?? 0) > 0;
  for (let round = 1, waitedMs = 0; waitedMs < KILL_WAIT_MS && isAnyAlive(); round += 1) {
    const again = target.processIds(killedAt);
    killedAt = target.mark();
    killPids(again);
    const pauseMs = Math.min(10 * round, 50);
    await pause(pauseMs);
    waitedMs += pauseMs;
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
export function killSandboxSync(target: Omit<SandboxKillTarget, "exited" | "mark">, root: string): void {
  killPids(target.processIds());
  removeSandboxDirsSync(root);
  const { cgroup } = target;
  const wait = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; attempt < 50 && cgroup && !cgroup.removeSync(); attempt += 1)
    Atomics.wait(wait, 0, 0, 10);
}
