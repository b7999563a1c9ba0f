// The job page's turn line, rendered by React's server renderer: an unknown cached-token count
// reads "unknown", never a 0 % cache hit.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TurnItem } from "../src/components/job/turn-item";
import type { TTurnView } from "../src/trpc/router-types";

function turn(cachedPromptTokens: number | null): TTurnView {
  return {
    jobId: "job_1",
    index: 0,
    promptIds: [1, 2, 3, 4],
    responseIds: [5, 6],
    logprobs: [-0.5, -0.25],
    backendId: "nemo-0",
    weightVersion: "w-1",
    cachedPromptTokens,
    latencyMs: 12,
    finishReason: "stop",
    text: "hi",
    createdAtMs: 1_764_000_000_000,
  };
}

const render = (value: number | null) =>
  renderToStaticMarkup(createElement(TurnItem, { turn: turn(value), toolCalls: [] })).replace(
    /<!-- -->/g,
    "",
  );

describe("TurnItem", () => {
  it("shows an unknown cached-token count as unknown", () => {
    const html = render(null);
    expect(html).toContain("4 prompt tokens (unknown cached)");
    expect(html).not.toContain("(0 cached)");
  });

  it("shows a reported count, 0 included", () => {
    expect(render(1)).toContain("4 prompt tokens (1 cached)");
    expect(render(0)).toContain("4 prompt tokens (0 cached)");
  });
});
