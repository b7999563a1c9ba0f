import { readdirSync, readFileSync } from "node:fs";

/** Every process of the host at one moment: identities and parent links, from /proc. */
export interface ProcessTable {
  /** `<pid>:<start ticks>` of each process seen (see `processIdentity`). */
  readonly identities: ReadonlyMap<number, string>;
  /** Child pids of each parent pid. */
  readonly children: ReadonlyMap<number, readonly number[]>;
}

/** A process of a sandbox; `identity` set when it came from a table (check it before trusting `pid`). */
export interface SandboxProcessRef {
  pid: number;
  identity?: string;
}

interface ProcStat {
  ppid: number;
  startTicks: string;
}

/** /proc/<pid>/stat's parent and start time; undefined when the process is gone. */
export function readProcStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), startTicks: fields[19] ?? "" };
  } catch {
    return undefined;
  }
}

/** Reads every /proc/<pid>/stat once (synchronous: a few ms per hundred processes). */
export function scanProcessTable(): ProcessTable {
  const identities = new Map<number, string>();
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readProcStat(pid);
    if (!stat) continue;
    identities.set(pid, `${pid}:${stat.startTicks}`);
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(pid);
    else children.set(stat.ppid, [pid]);
  }
  return { identities, children };
}

/** `rootPid` and all its descendants in `table` (none when the table has no `rootPid`). */
export function processTreeIn(table: ProcessTable, rootPid: number): number[] {
  if (!table.identities.has(rootPid)) return [];
  const tree: number[] = [];
  const queue = [rootPid];
  for (let at = 0; at < queue.length; at += 1) {
    const pid = queue[at]!;
    tree.push(pid);
    queue.push(...(table.children.get(pid) ?? []));
  }
  return tree;
}

/**
 * A sandbox's processes: its launcher's tree in `table` (with identities, as the table may be a
 * moment old) and the pids its cgroups list, read now (whatever runs under those is the
 * sandbox's). Tree order first, each pid once.
 */
export function sandboxProcessesIn(
  table: ProcessTable,
  launcherPid: number | undefined,
  cgroupPids: readonly number[],
): SandboxProcessRef[] {
  const refs = new Map<number, SandboxProcessRef>();
  for (const pid of launcherPid === undefined ? [] : processTreeIn(table, launcherPid))
    refs.set(pid, { pid, identity: table.identities.get(pid)! });
  for (const pid of cgroupPids) refs.set(pid, { pid });
  return [...refs.values()];
}

export interface ProcessTableSnapshotsOptions {
  /** How old a table `recent()` may hand out, in ms. Default 250. */
  maxAgeMs?: number;
  /** Default: {@link scanProcessTable}. */
  scan?: () => ProcessTable;
  /** Clock in ms. Default `performance.now`. */
  now?: () => number;
}

/**
 * One /proc scan shared by every sandbox of this process. A scan costs the event loop a read per
 * process on the host; every watchdog scanning for itself twice a second made that a second per
 * second with ~50 sandboxes. Sampling tolerates a table a moment old (`recent`); whatever kills
 * asks for a table scanned after a point it marked (`since`), or a `fresh` one, so a process
 * forked before that point is not missed, while teardowns running at once share their scans.
 */
export class ProcessTableSnapshots {
  readonly #maxAgeMs: number;
  readonly #scan: () => ProcessTable;
  readonly #now: () => number;
  #last: { table: ProcessTable; atMs: number; scanNumber: number } | undefined;
  #scans = 0;

  constructor(options: ProcessTableSnapshotsOptions = {}) {
    this.#maxAgeMs = options.maxAgeMs ?? 250;
    this.#scan = options.scan ?? scanProcessTable;
    this.#now = options.now ?? (() => performance.now());
  }

  /** A table scanned at most `maxAgeMs` ago (scans when the last one is older). */
  recent(): ProcessTable {
    const last = this.#last;
    if (last && this.#now() - last.atMs <= this.#maxAgeMs) return last.table;
    return this.fresh();
  }

  /** A table scanned now; it also serves `recent()` and `since()` from here on. */
  fresh(): ProcessTable {
    const table = this.#scan();
    this.#scans += 1;
    this.#last = { table, atMs: this.#now(), scanNumber: this.#scans };
    return table;
  }

  /** A point to pass to `since`: every scan from here on is after it. */
  mark(): number {
    return this.#scans;
  }

  /** A table scanned after `mark` (the last one when it is, else a fresh one). */
  since(mark: number): ProcessTable {
    const last = this.#last;
    return last && last.scanNumber > mark ? last.table : this.fresh();
  }
}

/** The snapshots every sandbox of this process shares. */
export const SHARED_PROCESS_TABLE = new ProcessTableSnapshots();
