import { describe, expect, it } from "vitest";
import { toToolResult } from "./mcp-tool-result";

describe("toToolResult", () => {
  it("carries a per-step reward from _meta, and none when the server gave none", () => {
    const text = [{ type: "text", text: "3 rows" }];
    expect(toToolResult({ content: text, _meta: { "raas/reward": 0.5 } }, 4)).toEqual({
      output: "3 rows",
      exitCode: null,
      isError: false,
      truncated: false,
      timedOut: false,
      durationMs: 4,
      reward: 0.5,
    });
    expect(toToolResult({ content: text, _meta: { other: 1 } }, 4)).not.toHaveProperty("reward");
    expect(toToolResult({ content: text }, 4)).not.toHaveProperty("reward");
  });

  it("passes a reward that is not a number as NaN, for the loop to refuse, never dropped", () => {
    expect(toToolResult({ content: [], _meta: { "raas/reward": "1" } }, 1).reward).toBeNaN();
  });
});
