import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { submitAndFinish, uniqueTag } from "../support/api-client";
import { storeBenchmarkRuns } from "../support/benchmark-runs";
import { e2eUrls } from "../support/e2e-env";

/** Impacts that fail the scan; minor and moderate findings are reported but tolerated. */
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

/** Every page of the dashboard, with what shows it has loaded (not its loading placeholder). */
function pages(jobId: string, runIds: readonly string[]): Array<{ path: string; ready: string }> {
  return [
    { path: "/", ready: "stage-init" },
    { path: "/jobs", ready: "jobs-table" },
    { path: `/jobs/${jobId}`, ready: "job-id" },
    { path: "/sandboxes", ready: "sandboxes-view" },
    { path: "/backends", ready: "backends-view" },
    { path: "/runs", ready: "runs-view" },
    { path: "/trajectories", ready: "trajectories-table" },
    { path: `/trajectories/${jobId}`, ready: "trajectory-id" },
    { path: "/benchmarks", ready: "benchmarks-view" },
    { path: `/benchmarks/compare?runs=${runIds.join(",")}`, ready: "instance-matrix" },
    { path: "/environments", ready: "environments-view" },
  ];
}

test("every page passes an axe-core scan without serious or critical violations", async ({ page }) => {
  test.setTimeout(180_000);
  const tag = uniqueTag("a11y");
  const [jobId] = await submitAndFinish([{ jobKey: `${tag}-ok` }]);
  const runIds = await storeBenchmarkRuns(
    tag,
    [
      { model: "Qwen/Qwen3-4B", solved: [0, 2] },
      { model: "Qwen/Qwen3-8B", solved: [1, 2] },
    ],
    [jobId!],
  );
  for (const { path, ready } of pages(jobId!, runIds)) {
    await page.goto(`${e2eUrls().webUrl}${path}`);
    await expect(page.getByTestId(ready).first()).toBeVisible();
    await expect(page.getByTestId("state-loading")).toHaveCount(0);
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    const blocking = results.violations
      .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""))
      .map((violation) => ({
        page: path,
        rule: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
      }));
    expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
  }
});
