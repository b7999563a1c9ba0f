import { expect, test } from "@playwright/test";
import { apiClient, pauseInit, QUICK_SLEEP, submitAndFinish, uniqueTag } from "../support/api-client";
import { e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";

const STAGES = ["init", "run", "eval"] as const;

test("Overview shows the live counts the API reports", async ({ page }) => {
  const api = apiClient("trainer");
  const tag = uniqueTag("ov");
  await page.goto(e2eUrls().webUrl);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

  // Finished work: 5 completed, 2 inference failures, 1 agent failure.
  await submitAndFinish([
    ...Array.from({ length: 5 }, (_, i) => ({ jobKey: `${tag}-ok-${i}` })),
    ...Array.from({ length: 2 }, (_, i) => ({
      jobKey: `${tag}-inf-${i}`,
      payload: { ...QUICK_SLEEP, fail: { run: { rate: 1, kind: "inference" } } },
    })),
    { jobKey: `${tag}-agent`, payload: { ...QUICK_SLEEP, fail: { eval: { rate: 1, kind: "agent" } } } },
  ]);
  const finished = await api.jobs.list.query({ search: tag, limit: 50 });
  expect(finished.items.filter((job) => job.status === "completed")).toHaveLength(5);
  expect(finished.items.filter((job) => job.failure?.kind === "inference")).toHaveLength(2);

  const afterFinish = await api.system.stats.query();
  expect(afterFinish.completed).toBeGreaterThanOrEqual(5);
  expect(afterFinish.failedByKind.inference).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("total-completed")).toHaveText(String(afterFinish.completed));
  await expect(page.getByTestId("total-submitted")).toHaveText(String(afterFinish.submitted));
  await expect(page.getByTestId("failed-inference")).toHaveText(String(afterFinish.failedByKind.inference));
  await expect(page.getByTestId("failed-agent")).toHaveText(String(afterFinish.failedByKind.agent));

  // Waiting work: with INIT paused, submitted jobs stay queued for INIT.
  const resumeInit = await pauseInit();
  try {
    const queuedBefore = (await api.system.stats.query()).stages.init.queued;
    await api.jobs.submitMany.mutate({
      jobs: Array.from({ length: 4 }, (_, i) => ({
        kind: "sleep",
        jobKey: `${tag}-wait-${i}`,
        payload: QUICK_SLEEP,
      })),
    });
    const paused = await api.system.stats.query();
    expect(paused.stages.init.queued).toBe(queuedBefore + 4);
    for (const stage of STAGES) {
      await expect(page.getByTestId(`stage-${stage}-queued`)).toHaveText(String(paused.stages[stage].queued));
      await expect(page.getByTestId(`stage-${stage}-active`)).toHaveText(String(paused.stages[stage].active));
    }
    await expect(page.getByTestId("stage-init")).toContainText("paused");
    const chart = page.getByTestId("throughput-chart");
    await expect(chart.getByRole("application")).toBeVisible();
    await expect(chart.locator(".recharts-legend-item")).toHaveText(["completed", "failed"]);
    await saveScreenshot(page, "overview");

    // Cancelling them moves the numbers again.
    const waiting = await api.jobs.list.query({ search: `${tag}-wait`, limit: 10 });
    for (const job of waiting.items) await api.jobs.cancel.mutate({ jobId: job.id });
    const afterCancel = await api.system.stats.query();
    expect(afterCancel.stages.init.queued).toBe(queuedBefore);
    await expect(page.getByTestId("stage-init-queued")).toHaveText(String(afterCancel.stages.init.queued));
    await expect(page.getByTestId("total-cancelled")).toHaveText(String(afterCancel.cancelled));
  } finally {
    await resumeInit();
  }
});

test("Overview's workers section equals workers.list", async ({ page }) => {
  const api = apiClient("viewer");
  await page.goto(e2eUrls().webUrl);
  const table = page.getByTestId("workers-table");
  await expect(table).toBeVisible();
  // Occupancy and sandboxes move with other work: compare the page with a fresh answer until they agree.
  await expect(async () => {
    const { workers } = await api.workers.list.query({ includeStopped: false });
    expect(workers.length).toBeGreaterThan(0);
    await expect(table.locator("tbody tr")).toHaveCount(workers.length, { timeout: 500 });
    for (const worker of workers) {
      await expect(page.getByTestId(`worker-status-${worker.id}`)).toHaveText(worker.status, {
        timeout: 500,
      });
      await expect(page.getByTestId(`worker-sandboxes-${worker.id}`)).toHaveText(String(worker.sandboxes), {
        timeout: 500,
      });
      await expect(page.getByTestId(`worker-health-${worker.id}`)).toHaveText(
        worker.isHealthy ? "healthy" : "unhealthy",
        { timeout: 500 },
      );
      for (const stage of STAGES) {
        const pool = worker.pools[stage];
        await expect(page.getByTestId(`worker-${stage}-${worker.id}`)).toHaveText(
          pool ? `${pool.active} / ${pool.concurrency}` : "—",
          { timeout: 500 },
        );
      }
    }
  }).toPass({ timeout: 20_000 });
  await saveScreenshot(page, `overview-workers-${test.info().project.name}`);
});

test("Overview breaks failures down by kind and stage as system.stats reports them", async ({ page }) => {
  const tag = uniqueTag("ovf");
  await submitAndFinish([
    ...Array.from({ length: 2 }, (_, i) => ({
      jobKey: `${tag}-inf-${i}`,
      payload: { ...QUICK_SLEEP, fail: { run: { rate: 1, kind: "inference" } } },
    })),
    { jobKey: `${tag}-sb`, payload: { ...QUICK_SLEEP, fail: { init: { rate: 1, kind: "sandbox" } } } },
  ]);
  const api = apiClient("viewer");
  await page.goto(e2eUrls().webUrl);
  // The failures land in the interval sampled after them; the window then slides: compare fresh answers.
  await expect(async () => {
    const { throughputSeries } = await api.system.stats.query();
    const sum = (kind: string, stage: string) =>
      throughputSeries
        .flatMap((sample) => sample.failures)
        .filter((failure) => failure.kind === kind && failure.stage === stage)
        .reduce((total, failure) => total + failure.count, 0);
    expect(sum("inference", "run")).toBeGreaterThanOrEqual(2);
    expect(sum("sandbox", "init")).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId("failure-count-inference_run")).toHaveText(
      String(sum("inference", "run")),
      {
        timeout: 1_500,
      },
    );
    await expect(page.getByTestId("failure-count-sandbox_init")).toHaveText(String(sum("sandbox", "init")), {
      timeout: 1_500,
    });
  }).toPass({ timeout: 30_000 });
  const legend = page.getByTestId("failure-breakdown-chart").locator(".recharts-legend-item");
  for (const label of ["sandbox in INIT", "inference in RUN"])
    await expect(legend.filter({ hasText: label })).toHaveCount(1);
});
