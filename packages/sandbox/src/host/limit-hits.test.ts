import { describe, expect, it } from "vitest";
import { limitHitsOfCall } from "./limit-hits";

const zero = { pidsLimitHits: 0, oomKills: 0 };

describe("limitHitsOfCall", () => {
  it("reports the limit the output named, once, even when the cgroup saw it too", () => {
    expect(limitHitsOfCall("processes", zero, { pidsLimitHits: 2, oomKills: 0 })).toEqual([
      { limit: "processes" },
    ]);
  });

  it("adds what only the cgroup counters show since the last call", () => {
    expect(
      limitHitsOfCall(undefined, { pidsLimitHits: 1, oomKills: 0 }, { pidsLimitHits: 3, oomKills: 1 }),
    ).toEqual([
      { limit: "processes", source: "cgroup" },
      { limit: "memory", source: "cgroup", oomKills: 1 },
    ]);
  });

  it("reports nothing when counters did not move and the output named nothing, or without a cgroup", () => {
    expect(
      limitHitsOfCall(undefined, { pidsLimitHits: 3, oomKills: 1 }, { pidsLimitHits: 3, oomKills: 1 }),
    ).toEqual([]);
    expect(limitHitsOfCall(undefined, zero, null)).toEqual([]);
    expect(limitHitsOfCall("output_bytes", zero, null)).toEqual([{ limit: "output_bytes" }]);
  });
});
