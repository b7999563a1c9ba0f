import { expect, test } from "@playwright/test";
import { apiClient, submitAndFinish, uniqueTag } from "../support/api-client";
import { storeBenchmarkRuns } from "../support/benchmark-runs";
import { e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";

/** The page's resolved %: one decimal, trailing zeros dropped (`formatPercent`). */
function percentText(resolved: number, total: number): string {
  return `${Number(((resolved / total) * 100).toFixed(1))} %`;
}

const SEEDS = [
  { model: "Qwen/Qwen3-4B", solved: [0, 1, 2] },
  { model: "Qwen/Qwen3-8B", solved: [0, 3, 4, 5] },
  { model: "Qwen/Qwen3-14B", solved: [0, 1, 3, 4, 5, 6, 7] },
] as const;

test("Benchmarks lists stored runs with the API's numbers and compares two of them", async ({ page }) => {
  test.setTimeout(120_000);
  const tag = uniqueTag("bench");
  const jobIds = await submitAndFinish([{ jobKey: `${tag}-job-0` }, { jobKey: `${tag}-job-1` }]);
  const runIds = await storeBenchmarkRuns(tag, SEEDS, jobIds);
  const api = apiClient("viewer");
  const { runs } = await api.benchmarks.list.query({ limit: 1_000 });
  const ours = runIds.map((id) => {
    const run = runs.find((candidate) => candidate.id === id);
    if (!run) throw new Error(`run ${id} is not listed`);
    return run;
  });

  await page.goto(`${e2eUrls().webUrl}/benchmarks`);
  await expect(page.getByRole("heading", { name: "Benchmarks", level: 1 })).toBeVisible();
  for (const run of ours) {
    await expect(page.getByTestId(`run-model-${run.id}`)).toHaveText(run.model);
    await expect(page.getByTestId(`run-counts-${run.id}`)).toHaveText(
      `${run.resolvedCount} / ${run.totalCount}`,
    );
    await expect(page.getByTestId(`run-resolved-${run.id}`)).toHaveText(
      percentText(run.resolvedCount, run.totalCount),
    );
    await expect(page.getByTestId(`run-dataset-${run.id}`)).toHaveText("raas-swe-fixtures (test)");
  }
  await expect(page.getByTestId(`run-size-${runIds[2]}`)).toHaveText("14B");
  // The published figures are there, and labelled as such.
  const reference = page.getByTestId("reference-section");
  await expect(reference.getByRole("heading")).toContainText("not runs of this service");
  await expect(page.getByTestId("reference-resolved-Qwen3-4B")).toHaveText("14.8 % → 21.2 %");
  await expect(page.getByTestId("reference-resolved-Qwen3-8B")).toHaveText("9.6 % → 18.0 %");
  await expect(page.getByTestId("reference-resolved-Qwen3-14B")).toHaveText("15.4 % → 23.6 %");
  await expect(page.getByTestId("reference-resolved-SkyRL-Agent-14B-v0")).toHaveText("21.6 %");
  await saveScreenshot(page, `benchmarks-${test.info().project.name}`);

  // A filter lives in the URL.
  await page.getByLabel("model", { exact: true }).selectOption("Qwen/Qwen3-8B");
  await expect(page).toHaveURL(/model=Qwen%2FQwen3-8B/);
  await expect(page.getByTestId(`run-row-${runIds[0]}`)).toHaveCount(0);
  await expect(page.getByTestId(`run-row-${runIds[1]}`)).toBeVisible();
  await page.getByLabel("model", { exact: true }).selectOption("");

  // Pick two runs and compare them.
  await expect(page.getByTestId("compare-link")).toBeDisabled();
  await page.getByTestId(`select-${runIds[0]}`).check();
  await page.getByTestId(`select-${runIds[2]}`).check();
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(new RegExp(`/benchmarks/compare\\?runs=${runIds[0]},${runIds[2]}$`));
  const compared = [ours[0]!, ours[2]!];
  for (const run of compared) {
    await expect(page.getByTestId(`compare-counts-${run.id}`)).toHaveText(
      `${run.resolvedCount} / ${run.totalCount}`,
    );
    await expect(page.getByTestId(`compare-resolved-${run.id}`)).toHaveText(
      percentText(run.resolvedCount, run.totalCount),
    );
  }
  await expect(page.getByTestId("compare-reference-Qwen3-14B")).toHaveText("15.4 % → 23.6 %");
  for (const run of compared) {
    const { items } = await api.benchmarks.results.query({ runId: run.id, limit: 1_000 });
    expect(items).toHaveLength(run.totalCount);
    for (const result of items) {
      await expect(page.getByTestId(`matrix-${run.id}-${result.instanceId}`)).toHaveText(
        result.resolved ? "✓ resolved" : "✗ unresolved",
      );
    }
  }
  // Solved by the 14B run alone: positions 3..7 (4B solved 0-2, 14B solved 0,1,3-7).
  await expect(page.getByTestId(`compare-only-${runIds[2]}`)).toHaveText("5");
  await expect(page.getByTestId(`compare-only-${runIds[0]}`)).toHaveText("1");
  await saveScreenshot(page, `benchmarks-compare-${test.info().project.name}`);

  // Only the disagreements, shareable in the URL.
  await page.getByTestId("show-split").click();
  await expect(page).toHaveURL(/only=split/);
  await expect(page.getByTestId("instance-matrix").locator("tbody tr")).toHaveCount(6);
  await page.getByTestId("show-all").click();
  await expect(page.getByTestId("instance-matrix").locator("tbody tr")).toHaveCount(ours[0]!.totalCount);

  // A result that names its job links to it.
  const { items } = await api.benchmarks.results.query({ runId: runIds[0]!, limit: 1_000 });
  const withJob = items.find((result) => result.jobId !== null);
  if (!withJob?.jobId) throw new Error("no stored result names its job");
  await page.getByTestId(`matrix-${runIds[0]}-${withJob.instanceId}`).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${withJob.jobId}$`));
  await expect(page.getByTestId("job-id")).toHaveText(withJob.jobId);
});

test("the comparison is complete in the server's HTML, before any script runs", async ({ request }) => {
  const tag = uniqueTag("bench-ssr");
  const runIds = await storeBenchmarkRuns(tag, SEEDS.slice(0, 2));
  const api = apiClient("viewer");
  const response = await request.get(`${e2eUrls().webUrl}/benchmarks/compare?runs=${runIds.join(",")}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  for (const runId of runIds) {
    const { run } = await api.benchmarks.get.query({ runId });
    const cell = new RegExp(
      `data-testid="compare-counts-${runId}"[^>]*>${run.resolvedCount} / ${run.totalCount}<`,
    );
    expect(html).toMatch(cell);
  }
  expect(html).not.toContain("Loading the runs");
});

test("the comparison says what to do for unknown runs and for none", async ({ page }) => {
  const { webUrl } = e2eUrls();
  await page.goto(`${webUrl}/benchmarks/compare`);
  await expect(page.getByText("No runs to compare.")).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Benchmarks" })).toBeVisible();
  await page.goto(`${webUrl}/benchmarks/compare?runs=no-such-run-${uniqueTag("x")}`);
  await expect(page.getByText(/No benchmark run "no-such-run-/)).toBeVisible();
  await expect(page.getByText("Check the id in the URL")).toBeVisible();
});
