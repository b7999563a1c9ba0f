/** The counters of one backend that the hit-rate chart reads (a subset of `backends.list`). */
export interface TBackendCounters {
  promptTokens: number;
  cachedPromptTokens: number;
  requestsWithUnknownCachedTokens: number;
  /** Since registration, over requests whose cached count was reported; null while none was. */
  prefixCacheHitRate: number | null;
}

/** One poll of `backends.list`: when, and each backend's counters by id. */
export interface TBackendSample {
  atMs: number;
  backends: Record<string, TBackendCounters>;
}

/** `interval`: hits between two samples; `cumulative`: since the backend was registered. */
export type THitRateMode = "interval" | "cumulative";

/**
 * The history with `sample` appended, keeping the newest `maxSamples`. A sample not newer than
 * the last one (a refetch answered from cache) is ignored, so the history only moves forward.
 */
export function appendSample(
  history: readonly TBackendSample[],
  sample: TBackendSample,
  maxSamples: number,
): TBackendSample[] {
  const last = history.at(-1);
  if (last && sample.atMs <= last.atMs) return [...history];
  return [...history, sample].slice(-Math.max(1, maxSamples));
}

/**
 * Hit rate between two samples: new cached prompt tokens over new prompt tokens. Null when no
 * prompt tokens came in, when counters went back (the backend was re-registered), or when a
 * request without a reported cached count came in (its prompt tokens would wrongly count as misses).
 */
export function intervalHitRate(previous: TBackendCounters, current: TBackendCounters): number | null {
  const promptTokens = current.promptTokens - previous.promptTokens;
  const cachedTokens = current.cachedPromptTokens - previous.cachedPromptTokens;
  const unknown = current.requestsWithUnknownCachedTokens - previous.requestsWithUnknownCachedTokens;
  if (promptTokens <= 0 || cachedTokens < 0 || unknown !== 0) return null;
  return Math.min(1, cachedTokens / promptTokens);
}

/** Chart rows and their lines: one line per backend, keyed `b0`, `b1`… (ids may hold dots). */
export interface THitRateChart {
  rows: Array<Record<string, string | number | null>>;
  series: Array<{ key: string; label: string }>;
}

function percent(rate: number | null): number | null {
  return rate === null ? null : Math.round(rate * 1_000) / 10;
}

/**
 * Prefix-cache hit rate in percent per sample and backend, for a line chart with `time` on the
 * x axis. In `interval` mode the first sample has no predecessor and so no value.
 */
export function hitRateChart(
  history: readonly TBackendSample[],
  mode: THitRateMode,
  formatTime: (atMs: number) => string,
): THitRateChart {
  const ids = [...new Set(history.flatMap((sample) => Object.keys(sample.backends)))].sort();
  const series = ids.map((id, index) => ({ key: `b${index}`, label: id }));
  const rows = history.map((sample, sampleIndex) => {
    const row: Record<string, string | number | null> = { time: formatTime(sample.atMs) };
    const previous = history[sampleIndex - 1];
    ids.forEach((id, index) => {
      const current = sample.backends[id];
      const before = previous?.backends[id];
      let rate: number | null = null;
      if (current && mode === "cumulative") rate = current.prefixCacheHitRate;
      else if (current && before) rate = intervalHitRate(before, current);
      row[`b${index}`] = percent(rate);
    });
    return row;
  });
  return { rows, series };
}
