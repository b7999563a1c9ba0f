import type { TTurnSpan } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { tokenVersions } from "./token-versions";

function span(start: number, versions: Array<[number, string | null]>): TTurnSpan {
  const spans = [];
  let at = start;
  for (const [length, weightVersion] of versions) {
    spans.push({ start: at, end: at + length, weightVersion });
    at += length;
  }
  return {
    index: 0,
    start,
    end: at,
    weightVersion: versions.at(-1)?.[1] ?? null,
    weightVersionSpans: spans,
    backendId: null,
    finishReason: null,
    cachedPromptTokens: null,
    latencyMs: 0,
    sampling: null,
  };
}

describe("tokenVersions", () => {
  it("numbers the policy's decimal versions and leaves every other position -1", () => {
    expect(
      tokenVersions(7, [
        span(1, [[2, "0"]]),
        span(4, [
          [1, "41"],
          [1, "42"],
        ]),
      ]),
    ).toEqual([-1, 0, 0, -1, 41, 42, -1]);
  });

  it("gives -1 to versions that are no non-negative safe integer", () => {
    const odd = ["ckpt-7", "07", "-1", "1.5", "1e3", " 3", "", "9007199254740993", null];
    const turns = odd.map((version, i) => span(i, [[1, version]]));
    expect(tokenVersions(odd.length, turns)).toEqual(Array(odd.length).fill(-1));
    expect(tokenVersions(1, [span(0, [[1, "9007199254740991"]])])).toEqual([9_007_199_254_740_991]);
  });
});
