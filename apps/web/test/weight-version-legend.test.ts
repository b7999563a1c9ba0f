// The weight-version key of the token view, rendered by React's server renderer: drawn only when a
// trajectory's sampled tokens come from several integer weight versions, each with its count.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { WeightVersionLegend } from "../src/components/trajectories/weight-version-legend";

const render = (lossMask: (0 | 1)[], versions: number[]) =>
  renderToStaticMarkup(createElement(WeightVersionLegend, { exported: { lossMask, versions } })).replace(
    /<!-- -->/g,
    "",
  );

describe("WeightVersionLegend", () => {
  it("lists each version with its sampled tokens, each under its own marker, when there are several", () => {
    const html = render([0, 1, 1, 1, 0, 1], [-1, 7, 7, 8, -1, 8]);
    expect(html).toContain('data-testid="version-legend"');
    expect(html).toContain("version 7: 2 sampled tokens");
    expect(html).toContain("version 8: 2 sampled tokens");
    const markers = [...html.matchAll(/<span class="([^"]*)"/g)].map((match) => match[1]);
    expect(markers).toHaveLength(2);
    expect(new Set(markers).size).toBe(2);
  });

  it("draws nothing for a single version, prompt tokens aside", () => {
    expect(render([0, 1, 1, 0], [-1, 7, 7, -1])).toBe("");
    expect(render([0, 0], [-1, -1])).toBe("");
  });
});
