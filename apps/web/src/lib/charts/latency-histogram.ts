/** One histogram bucket: `[fromMs, toMs)`, `toMs` null for the open last bucket. */
export interface TLatencyBucket {
  label: string;
  fromMs: number;
  toMs: number | null;
  count: number;
}

/**
 * Bucket edges for create → ready times, in ms: roughly doubling, so a fast pool (tens of ms)
 * and a slow one (seconds, an image pull) both show their shape on one axis.
 */
const READY_LATENCY_EDGES_MS = [0, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000] as const;

function formatEdge(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${ms / 1_000} s`;
}

function labelOf(fromMs: number, toMs: number | null): string {
  if (toMs === null) return `≥ ${formatEdge(fromMs)}`;
  if (fromMs === 0) return `< ${formatEdge(toMs)}`;
  return `${formatEdge(fromMs)}–${formatEdge(toMs)}`;
}

/**
 * Counts latencies into buckets between ascending `edges` (the last bucket is open-ended).
 * Negative or non-finite values are dropped: a clock step must not invent a bucket.
 */
export function bucketLatencies(
  valuesMs: readonly number[],
  edges: readonly number[] = READY_LATENCY_EDGES_MS,
): TLatencyBucket[] {
  const buckets: TLatencyBucket[] = edges.map((fromMs, index) => {
    const toMs = edges[index + 1] ?? null;
    return { label: labelOf(fromMs, toMs), fromMs, toMs, count: 0 };
  });
  for (const value of valuesMs) {
    if (!Number.isFinite(value) || value < 0) continue;
    let index = buckets.length - 1;
    while (index > 0 && value < (buckets[index]?.fromMs ?? 0)) index -= 1;
    const bucket = buckets[index];
    if (bucket) bucket.count += 1;
  }
  return buckets;
}

/**
 * The `p`-th percentile (0..100) by nearest rank, or null for no values: p50 is the median, p100
 * the slowest. Nearest rank so the value shown is one that really happened.
 */
export function percentile(valuesMs: readonly number[], p: number): number | null {
  const sorted = valuesMs.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}
