/** The four limit families a researcher asks about, plus whatever else the runtime reports. */
const LIMIT_FAMILIES = ["pids", "memory", "time", "disk", "other"] as const;
export type TLimitFamily = (typeof LIMIT_FAMILIES)[number];

/**
 * Which family a `limit_hit` event's limit kind belongs to. The runtimes name kinds by what they
 * measure (`processes` from the cgroup or RLIMIT_NPROC, `wallTime` and `cpuTotal` from the
 * watchdog, `disk` for the workspace, `fileSize` per process…); unknown kinds land in `other`.
 */
export function limitFamilyOf(kind: string): TLimitFamily {
  const normalized = kind.toLowerCase().replace(/[^a-z]/g, "");
  if (["processes", "pids", "nproc", "threads"].includes(normalized)) return "pids";
  if (["memory", "rss", "oom", "addressspace", "as"].includes(normalized)) return "memory";
  if (["walltime", "cputotal", "cpu", "cputime", "time", "timeout"].includes(normalized)) return "time";
  if (["disk", "workspace", "workspacesize", "filesize", "fsize", "tmp", "shm"].includes(normalized))
    return "disk";
  return "other";
}

/** One row of the limit-hit table: a family, its total and the kinds it was made of. */
export interface TLimitFamilyRow {
  family: TLimitFamily;
  hits: number;
  kinds: Array<{ kind: string; hits: number }>;
}

/** `limit_hit` counts by kind (as `sandboxes.summary` gives them) grouped into the families. */
export function groupLimitHits(limitHits: Readonly<Record<string, number>>): TLimitFamilyRow[] {
  const rows = new Map<TLimitFamily, TLimitFamilyRow>(
    LIMIT_FAMILIES.map((family) => [family, { family, hits: 0, kinds: [] }]),
  );
  for (const [kind, hits] of Object.entries(limitHits).sort(([a], [b]) => a.localeCompare(b))) {
    const row = rows.get(limitFamilyOf(kind));
    if (!row) continue;
    row.hits += hits;
    row.kinds.push({ kind, hits });
  }
  return [...rows.values()];
}
