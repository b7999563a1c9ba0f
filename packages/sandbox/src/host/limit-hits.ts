/** A sandbox's cgroup counters of refused forks and kernel memory kills. */
export interface CgroupLimitCounters {
  pidsLimitHits: number;
  oomKills: number;
}

/**
 * The `limit_hit` events one call earned: the limit the execution server named in its output,
 * plus each limit the cgroup counters show was hit since `before` and the output did not name
 * (one event per limit per call).
 */
export function limitHitsOfCall(
  fromOutput: string | undefined,
  before: CgroupLimitCounters,
  now: CgroupLimitCounters | null,
): Record<string, unknown>[] {
  const hits: Record<string, unknown>[] = fromOutput ? [{ limit: fromOutput }] : [];
  if (!now) return hits;
  if (now.pidsLimitHits > before.pidsLimitHits && fromOutput !== "processes")
    hits.push({ limit: "processes", source: "cgroup" });
  if (now.oomKills > before.oomKills && fromOutput !== "memory")
    hits.push({ limit: "memory", source: "cgroup", oomKills: now.oomKills });
  return hits;
}
