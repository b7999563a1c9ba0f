import { describe, expect, it } from "vitest";
import {
  appendSample,
  hitRateChart,
  intervalHitRate,
  type TBackendCounters,
  type TBackendSample,
} from "./hit-rate-history";

function counters(promptTokens: number, cachedPromptTokens: number, unknown = 0): TBackendCounters {
  return {
    promptTokens,
    cachedPromptTokens,
    requestsWithUnknownCachedTokens: unknown,
    prefixCacheHitRate: promptTokens === 0 ? null : cachedPromptTokens / promptTokens,
  };
}

describe("appendSample", () => {
  it("appends newer samples, ignores stale ones and keeps the newest maxSamples", () => {
    let history: TBackendSample[] = [];
    for (const atMs of [1_000, 3_000, 2_000, 3_000, 5_000, 7_000]) {
      history = appendSample(history, { atMs, backends: {} }, 3);
    }
    expect(history.map((sample) => sample.atMs)).toEqual([3_000, 5_000, 7_000]);
  });
});

describe("intervalHitRate", () => {
  it("is new cached tokens over new prompt tokens", () => {
    expect(intervalHitRate(counters(100, 20), counters(300, 170))).toBe(0.75);
  });

  it("is null without new prompt tokens, after a counter reset, or with unreported cached counts", () => {
    expect(intervalHitRate(counters(100, 20), counters(100, 20))).toBeNull();
    expect(intervalHitRate(counters(100, 20), counters(50, 10))).toBeNull();
    expect(intervalHitRate(counters(100, 20, 0), counters(200, 60, 1))).toBeNull();
  });
});

describe("hitRateChart", () => {
  const history: TBackendSample[] = [
    { atMs: 1_000, backends: { "10.0.0.1:8000": counters(0, 0) } },
    { atMs: 3_000, backends: { "10.0.0.1:8000": counters(200, 100), "sim-b": counters(100, 0) } },
    { atMs: 5_000, backends: { "10.0.0.1:8000": counters(400, 250), "sim-b": counters(100, 0) } },
  ];
  const formatTime = (atMs: number) => `t${atMs / 1_000}`;

  it("gives one line per backend with keys safe for ids with dots, interval rates in percent", () => {
    const chart = hitRateChart(history, "interval", formatTime);
    expect(chart.series).toEqual([
      { key: "b0", label: "10.0.0.1:8000" },
      { key: "b1", label: "sim-b" },
    ]);
    expect(chart.rows).toEqual([
      { time: "t1", b0: null, b1: null },
      { time: "t3", b0: 50, b1: null },
      { time: "t5", b0: 75, b1: null },
    ]);
  });

  it("in cumulative mode shows each sample's rate since registration", () => {
    const chart = hitRateChart(history, "cumulative", formatTime);
    expect(chart.rows).toEqual([
      { time: "t1", b0: null, b1: null },
      { time: "t3", b0: 50, b1: 0 },
      { time: "t5", b0: 62.5, b1: 0 },
    ]);
  });
});
