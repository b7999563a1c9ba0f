import { expect, test } from "@playwright/test";
import { apiClient, pauseInit, QUICK_SLEEP, submitAndFinish, uniqueTag } from "../support/api-client";
import { E2E_TOKENS, e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";

test("job page shows status, priority, key, stage timings, reward and failure", async ({ page }) => {
  const tag = uniqueTag("jd");
  const [okId, failedId] = await submitAndFinish([
    { jobKey: `${tag}-ok`, priority: 7, payload: { initMs: 40, runMs: 120, evalMs: 60, reward: 0.75 } },
    { jobKey: `${tag}-eval`, payload: { ...QUICK_SLEEP, fail: { eval: { rate: 1, kind: "eval" } } } },
  ]);
  const job = await apiClient().jobs.get.query({ id: okId! });

  await page.goto(`${e2eUrls().webUrl}/jobs/${okId}`);
  await expect(page.getByTestId("job-id")).toHaveText(okId!);
  await expect(page.getByTestId("fact-status")).toHaveText("completed");
  await expect(page.getByTestId("fact-priority")).toHaveText("7");
  await expect(page.getByTestId("fact-key")).toHaveText(`${tag}-ok`);
  await expect(page.getByTestId("fact-reward")).toHaveText("0.75");
  await expect(page.getByTestId("fact-trainable")).toHaveText("yes");
  for (const segment of ["queue", "init", "run", "eval"] as const) {
    await expect(page.getByTestId(`timing-${segment}`)).toBeVisible();
  }
  expect(job.timings.runMs).toBeGreaterThanOrEqual(100);
  await expect(page.getByTestId("timing-run")).toContainText(/RUN \d+ ms/);
  await expect(page.getByTestId("trajectory")).toContainText("No turns or tool calls recorded");
  await expect(page.getByTestId("cancel-reason")).toContainText("already completed");
  await saveScreenshot(page, "job-detail");

  await page.goto(`${e2eUrls().webUrl}/jobs/${failedId}`);
  await expect(page.getByTestId("fact-status")).toHaveText("failed");
  await expect(page.getByTestId("failure-kind")).toHaveText("eval");
  await expect(page.getByTestId("failure-panel")).toContainText("injected eval failure in eval");
  await expect(page.getByTestId("fact-trainable")).toHaveText("no");

  await page.goto(`${e2eUrls().webUrl}/jobs/job_does_not_exist`);
  await expect(page.getByTestId("state-error")).toContainText("Could not load job job_does_not_exist");
});

test("cancelling a queued job needs the admin token; without it the button is disabled with the reason", async ({
  page,
}) => {
  const api = apiClient("trainer");
  const tag = uniqueTag("cx");
  const resumeInit = await pauseInit();
  try {
    const { job } = await api.jobs.submit.mutate({
      kind: "sleep",
      jobKey: `${tag}-queued`,
      payload: QUICK_SLEEP,
    });
    await page.goto(`${e2eUrls().webUrl}/jobs/${job.id}`);
    const cancel = page.getByRole("button", { name: "Cancel job" });
    const reason = page.getByTestId("cancel-reason");

    // A viewer without a token: disabled, and told why.
    await expect(page.getByTestId("fact-status")).toHaveText("queued · init");
    await expect(page.getByTestId("timing-queue")).toContainText("so far");
    await expect(page.getByTestId("token-status")).toHaveText("read-only (no token)");
    await expect(cancel).toBeDisabled();
    await expect(reason).toContainText("Cancelling needs the admin token");
    await saveScreenshot(page, "job-detail-viewer");

    // A trainer token is not enough in the dashboard.
    await page.getByLabel("API token").fill(E2E_TOKENS.trainer);
    await page.getByRole("button", { name: "Use token" }).click();
    await expect(page.getByTestId("token-status")).toHaveText("token: not admin");
    await expect(cancel).toBeDisabled();
    await expect(reason).toContainText("not the admin token");
    await page.getByRole("button", { name: "Forget token" }).click();

    // The admin token, entered in the UI and kept in localStorage, enables it.
    await page.getByLabel("API token").fill(E2E_TOKENS.admin);
    await page.getByRole("button", { name: "Use token" }).click();
    await expect(page.getByTestId("token-status")).toHaveText("admin token");
    expect(await page.evaluate(() => window.localStorage.getItem("raas.token"))).toBe(E2E_TOKENS.admin);
    await expect(cancel).toBeEnabled();
    await cancel.click();

    await expect(page.getByTestId("fact-status")).toHaveText("cancelled");
    await expect(page.getByTestId("failure-kind")).toHaveText("cancelled");
    await expect(cancel).toBeDisabled();
    await expect(reason).toContainText("already cancelled");
    expect((await api.jobs.get.query({ id: job.id })).status).toBe("cancelled");

    // The token survives a reload.
    await page.reload();
    await expect(page.getByTestId("token-status")).toHaveText("admin token");
    await saveScreenshot(page, "job-detail-cancelled");
  } finally {
    await resumeInit();
  }
});

test("job page follows a running job live, without a reload", async ({ page }) => {
  const api = apiClient("trainer");
  const tag = uniqueTag("live");
  const resumeInit = await pauseInit();
  let jobId: string;
  try {
    const { job } = await api.jobs.submit.mutate({
      kind: "sleep",
      jobKey: `${tag}-slow`,
      payload: { initMs: 10, runMs: 2_500, evalMs: 10 },
    });
    jobId = job.id;
    await page.goto(`${e2eUrls().webUrl}/jobs/${jobId}`);
    await expect(page.getByTestId("fact-status")).toHaveText("queued · init");
  } finally {
    await resumeInit();
  }
  await expect(page.getByTestId("fact-status")).toHaveText("active · run");
  await expect(page.getByTestId("timing-run")).toContainText("so far");
  await expect(page.getByTestId("fact-status")).toHaveText("completed", { timeout: 15_000 });
  await expect(page.getByTestId("timing-run")).toContainText(/RUN 2\.\d\d s$/);
  expect((await api.jobs.get.query({ id: jobId })).status).toBe("completed");
});
