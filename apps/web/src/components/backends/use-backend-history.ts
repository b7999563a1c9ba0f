"use client";

import { useEffect, useState } from "react";
import { appendSample, type TBackendSample } from "../../lib/charts/hit-rate-history";
import type { TBackendView } from "../../trpc/router-types";

/** Samples the browser keeps: 300 at one per 2 s is the last 10 minutes. */
export const HISTORY_SAMPLES = 300;

/**
 * The backends' counters as this page polled them, one sample per answer (`updatedAtMs`), kept
 * in the browser only: it starts empty on every page load. The server keeps totals, not history.
 */
export function useBackendHistory(
  backends: readonly TBackendView[] | undefined,
  updatedAtMs: number,
): TBackendSample[] {
  const [history, setHistory] = useState<TBackendSample[]>([]);
  useEffect(() => {
    if (!backends || updatedAtMs === 0) return;
    const sample: TBackendSample = {
      atMs: updatedAtMs,
      backends: Object.fromEntries(
        backends.map((backend) => [
          backend.id,
          {
            promptTokens: backend.stats.promptTokens,
            cachedPromptTokens: backend.stats.cachedPromptTokens,
            requestsWithUnknownCachedTokens: backend.stats.requestsWithUnknownCachedTokens,
            prefixCacheHitRate: backend.stats.prefixCacheHitRate,
          },
        ]),
      ),
    };
    setHistory((current) => appendSample(current, sample, HISTORY_SAMPLES));
  }, [backends, updatedAtMs]);
  return history;
}
