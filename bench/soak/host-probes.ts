import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/** Open file descriptors of a process (entries of `/proc/<pid>/fd`); null once it is gone. */
export async function openFds(pid: number): Promise<number | null> {
  try {
    return (await readdir(`/proc/${pid}/fd`)).length;
  } catch {
    return null;
  }
}

/** Resident memory of a process in bytes (`VmRSS`); null once it is gone. */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  } catch {
    return null;
  }
}

/** `pid`, `ppid` and `comm` of every process this user can see. */
async function processTable(): Promise<Array<{ pid: number; ppid: number; comm: string }>> {
  const rows: Array<{ pid: number; ppid: number; comm: string }> = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = await readFile(`/proc/${entry}/stat`, "utf8");
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so split at the last ')'.
      const close = text.lastIndexOf(")");
      const comm = text.slice(text.indexOf("(") + 1, close);
      const ppid = Number(text.slice(close + 2).split(" ")[1]);
      rows.push({ pid: Number(entry), ppid, comm });
    } catch {
      // gone meanwhile
    }
  }
  return rows;
}

/** Processes named `comm` in the process tree below `rootPid` (the server's bwrap sandboxes). */
export async function descendantsNamed(rootPid: number, comm: string): Promise<number> {
  const table = await processTable();
  const children = new Map<number, number[]>();
  for (const row of table) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row.pid]);
  const below = new Set<number>();
  const stack = [...(children.get(rootPid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    if (below.has(pid)) continue;
    below.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return table.filter((row) => below.has(row.pid) && row.comm === comm).length;
}

/** Apparent size in bytes of every file under `path` (0 when it does not exist). */
export async function treeBytes(path: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.size;
  let total = 0;
  let entries: string[] = [];
  try {
    entries = await readdir(path);
  } catch {
    return 0;
  }
  for (const entry of entries) total += await treeBytes(join(path, entry));
  return total;
}

/** Entries directly in `dir` (0 when it does not exist). */
export async function entriesIn(dir: string): Promise<number> {
  try {
    return (await readdir(dir)).length;
  } catch {
    return 0;
  }
}

/** Names of the entries directly in `dir` (none when it does not exist). */
export async function entryNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

/** Times one GET, in ms, and whether it answered 2xx; null when no answer came (refused, timed out). */
export async function timedGet(
  url: string,
  timeoutMs: number,
): Promise<{ ms: number; isOk: boolean } | null> {
  const started = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return { ms: performance.now() - started, isOk: response.ok };
  } catch {
    return null;
  }
}
