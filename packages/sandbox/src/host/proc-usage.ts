/**
 * Pure arithmetic over /proc samples of a sandbox's processes: parsing `stat`/`status` text and
 * accounting whole-sandbox CPU time across processes that come and go. No I/O here.
 */

/** USER_HZ: /proc reports CPU times in these ticks per second; the kernel ABI fixes it at 100. */
export const CLOCK_TICKS_PER_SEC = 100;

/** One process as /proc/<pid>/stat and /proc/<pid>/status describe it. */
export interface ProcSample {
  /** pid plus start time, so a reused pid is a different process. */
  identity: string;
  pid: number;
  ppid: number;
  /** utime + stime: the process's own CPU (all its threads, ended ones included), in ticks. */
  ownTicks: number;
  /** cutime + cstime: CPU of the children it has waited for (and theirs), in ticks. */
  reapedTicks: number;
  /** Resident memory in bytes (0 for a zombie). */
  rssBytes: number;
}

/** Parses /proc/<pid>/stat (and VmRSS of /proc/<pid>/status); undefined for unreadable text. */
export function parseProcSample(pid: number, statText: string, statusText = ""): ProcSample | undefined {
  const close = statText.lastIndexOf(")");
  if (close < 0) return undefined;
  // Fields after the command name, which may itself hold spaces and parentheses.
  const fields = statText.slice(close + 2).split(" ");
  const numberAt = (index: number) => Number(fields[index]);
  const [ppid, utime, stime, cutime, cstime] = [1, 11, 12, 13, 14].map(numberAt);
  const startTicks = fields[19];
  if (![ppid, utime, stime, cutime, cstime].every(Number.isFinite) || startTicks === undefined)
    return undefined;
  const rssKb = /^VmRSS:\s+(\d+) kB/m.exec(statusText)?.[1];
  return {
    identity: `${pid}:${startTicks}`,
    pid,
    ppid: ppid!,
    ownTicks: utime! + stime!,
    reapedTicks: cutime! + cstime!,
    rssBytes: rssKb === undefined ? 0 : Number(rssKb) * 1024,
  };
}

/** Running CPU account of one sandbox; carried from one sample to the next. */
export interface CpuAccount {
  /** The previous sample, by identity. */
  previous: ReadonlyMap<string, ProcSample>;
  /** CPU of ended processes that no watched process absorbed (auto-reaped, or reaped outside), in ticks. */
  lostTicks: number;
  /** Whole-sandbox CPU so far, in ticks. */
  totalTicks: number;
}

export const EMPTY_CPU_ACCOUNT: CpuAccount = { previous: new Map(), lostTicks: 0, totalTicks: 0 };

/** Parent links are followed at most this far when looking for an ended process's reaper. */
const MAX_ANCESTRY_HOPS = 64;

/**
 * Folds a new sample into the account. The total is the sum over live processes of own + reaped
 * CPU (an ended process that was waited for counts in its reaper), plus CPU that ended processes
 * took with them: when a process we saw is gone and its nearest live ancestor's reaped CPU did not
 * grow by at least what the gone one had, the difference is kept (a parent that ignores SIGCHLD
 * discards its children's times; that must not launder CPU). It can over-count only when a parent
 * and its unwaited child end within one interval.
 */
export function accountCpu(account: CpuAccount, samples: readonly ProcSample[]): CpuAccount {
  const current = new Map(samples.map((sample) => [sample.identity, sample]));
  const previousByPid = new Map([...account.previous.values()].map((sample) => [sample.pid, sample]));
  const expectedByReaper = new Map<string, number>();
  let lostTicks = account.lostTicks;
  for (const gone of account.previous.values()) {
    if (current.has(gone.identity)) continue;
    const carried = gone.ownTicks + gone.reapedTicks;
    const reaper = liveAncestor(gone, previousByPid, current);
    if (reaper) expectedByReaper.set(reaper, (expectedByReaper.get(reaper) ?? 0) + carried);
    else lostTicks += carried;
  }
  for (const [identity, expected] of expectedByReaper) {
    const grown = current.get(identity)!.reapedTicks - account.previous.get(identity)!.reapedTicks;
    lostTicks += Math.max(0, expected - grown);
  }
  let liveTicks = 0;
  for (const sample of samples) liveTicks += sample.ownTicks + sample.reapedTicks;
  return { previous: current, lostTicks, totalTicks: Math.max(account.totalTicks, liveTicks + lostTicks) };
}

/** Identity of the nearest ancestor (by last-known parent links) alive in both samples. */
function liveAncestor(
  gone: ProcSample,
  previousByPid: ReadonlyMap<number, ProcSample>,
  current: ReadonlyMap<string, ProcSample>,
): string | undefined {
  let parentPid = gone.ppid;
  for (let hop = 0; hop < MAX_ANCESTRY_HOPS; hop += 1) {
    const parent = previousByPid.get(parentPid);
    if (!parent) return undefined;
    if (current.has(parent.identity)) return parent.identity;
    parentPid = parent.ppid;
  }
  return undefined;
}

/** Summed resident memory of the sampled processes, in bytes (shared pages count once per process). */
export function totalRssBytes(samples: readonly ProcSample[]): number {
  let total = 0;
  for (const sample of samples) total += sample.rssBytes;
  return total;
}
