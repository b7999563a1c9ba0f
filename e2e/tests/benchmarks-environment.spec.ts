import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { apiClient, submitAndFinish, uniqueTag } from "../support/api-client";
import { e2eUrls } from "../support/e2e-env";
import { crashingMathVerifyCopy, runRaas } from "../support/environment-runs";
import { saveScreenshot } from "../support/screenshot";

const MATH_VERIFY = fileURLToPath(new URL("../../environments/math-verify", import.meta.url));

/**
 * An environment benchmark run as `raas eval env` stores it: a registered environment named by
 * `createRun { environment }`, a reward per graded task, and an infrastructure failure recorded
 * as an error (no reward) — which the mean leaves out.
 */
async function storeEnvironmentRun(tag: string) {
  const environment = `${tag}-math`;
  await apiClient("admin").environments.register.mutate({ path: MATH_VERIFY, name: environment });
  const jobIds = await submitAndFinish([{ jobKey: `${tag}-job-0` }, { jobKey: `${tag}-job-1` }]);
  const api = apiClient("trainer");
  const runId = `${tag}-env-run`;
  await api.benchmarks.createRun.mutate({
    id: runId,
    model: "Qwen/Qwen3-8B",
    environment,
    config: { backend: "http://127.0.0.1:1/simulated", concurrency: 8 },
  });
  const graded = (index: number, reward: number, jobId: string | null) => ({
    instanceId: `math-verify-0${index}`,
    jobId,
    resolved: reward >= 1,
    detail: { reward, jobId, error: null, failure: null, attempt: 1 },
  });
  await api.benchmarks.recordResults.mutate({
    runId,
    results: [
      graded(0, 1, jobIds[0] ?? null),
      graded(1, 0, jobIds[1] ?? null),
      graded(2, 0.5, null),
      {
        instanceId: "math-verify-03",
        jobId: null,
        resolved: false,
        detail: { reward: null, jobId: null, error: "eval in eval: the verifier crashed", attempt: 1 },
      },
    ],
  });
  await api.benchmarks.finishRun.mutate({ runId, status: "completed" });
  return { environment, runId, jobIds };
}

test("an environment benchmark run shows its mean reward and no SWE-bench reference figures", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = uniqueTag("bench-env");
  const { environment, runId, jobIds } = await storeEnvironmentRun(tag);
  const { run } = await apiClient("viewer").benchmarks.get.query({ runId });
  // The mean is over the three graded tasks: the crashed verifier's task has no reward, not 0.
  expect(run).toMatchObject({ totalCount: 4, resolvedCount: 1, rewardCount: 3, meanReward: 0.5 });

  const { webUrl } = e2eUrls();
  await page.goto(`${webUrl}/benchmarks?dataset=${encodeURIComponent(environment)}`);
  await expect(page.getByRole("heading", { name: "Benchmarks", level: 1 })).toBeVisible();
  await expect(page.getByTestId(`run-model-${runId}`)).toHaveText("Qwen/Qwen3-8B");
  await expect(page.getByTestId(`run-counts-${runId}`)).toHaveText("1 / 4");
  await expect(page.getByTestId(`run-resolved-${runId}`)).toHaveText("25 %");
  await expect(page.getByTestId(`run-reward-${runId}`)).toHaveText("0.5");
  await expect(page.getByTestId(`run-dataset-${runId}`)).toContainText(environment);
  await expect(page.getByTestId(`run-env-${runId}`)).toHaveText("reward-fn environment");
  // Only environment runs are shown: SWE-bench's published figures are not beside them.
  await expect(page.getByTestId("benchmark-runs-table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("reference-section")).toHaveCount(0);
  await saveScreenshot(page, `benchmarks-environment-${test.info().project.name}`);

  // Its per-task results: the reward of each graded task, the error as an error.
  await page.getByRole("link", { name: runId }).click();
  await expect(page).toHaveURL(new RegExp(`/benchmarks/compare\\?runs=${runId}$`));
  await expect(page.getByTestId(`compare-counts-${runId}`)).toHaveText("1 / 4");
  await expect(page.getByTestId(`compare-reward-${runId}`)).toHaveText("0.5");
  await expect(page.getByTestId("compare-resolved-table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByText("published reference", { exact: true })).toHaveCount(0);
  const cell = (task: string) => page.getByTestId(`matrix-${runId}-${task}`);
  await expect(cell("math-verify-00")).toHaveText("✓ resolved · 1");
  await expect(cell("math-verify-01")).toHaveText("✗ unresolved · 0");
  await expect(cell("math-verify-02")).toHaveText("✗ unresolved · 0.5");
  await expect(cell("math-verify-03")).toHaveText("⚠ error");
  await expect(cell("math-verify-03").locator("[title]")).toHaveAttribute(
    "title",
    "eval in eval: the verifier crashed",
  );
  await saveScreenshot(page, `benchmarks-environment-compare-${test.info().project.name}`);
  await cell("math-verify-00").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${jobIds[0]}$`));
});

test("raas eval env rolls an environment out on the deployment and the page shows the run", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const tag = uniqueTag("eval-env");
  const copy = crashingMathVerifyCopy();
  try {
    const environment = `${tag}-math`;
    await apiClient("admin").environments.register.mutate({ path: copy.path, name: environment });
    const { serverUrl, webUrl } = e2eUrls();
    const runId = `${tag}-run`;
    // The deployment's own backend (the simulator) rolls out: 00 right, 01 wrong, 02's verifier crashes.
    const run = await runRaas(serverUrl, [
      "eval",
      "env",
      environment,
      "--limit",
      "3",
      "--run-id",
      runId,
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      runId,
      stored: true,
      summary: { total: 3, graded: 2, resolved: 1, errors: 1, meanReward: 0.5 },
    });

    await page.goto(`${webUrl}/benchmarks?dataset=${encodeURIComponent(environment)}`);
    await expect(page.getByTestId(`run-counts-${runId}`)).toHaveText("1 / 3");
    await expect(page.getByTestId(`run-resolved-${runId}`)).toHaveText("33.3 %");
    await expect(page.getByTestId(`run-reward-${runId}`)).toHaveText("0.5");
    await expect(page.getByTestId(`run-env-${runId}`)).toHaveText("reward-fn environment");
    await expect(page.getByTestId("reference-section")).toHaveCount(0);

    await page.goto(`${webUrl}/benchmarks/compare?runs=${runId}`);
    const cell = (task: string) => page.getByTestId(`matrix-${runId}-${task}`);
    await expect(cell("math-verify-00")).toHaveText("✓ resolved · 1");
    await expect(cell("math-verify-01")).toHaveText("✗ unresolved · 0");
    await expect(cell("math-verify-02")).toHaveText("⚠ error");
    await expect(cell("math-verify-02").getByRole("link")).toHaveAttribute(
      "title",
      /^eval in eval: .*a verifier bug on this row/s,
    );
    // Each task's cell opens the job that graded it.
    await cell("math-verify-00").getByRole("link").click();
    await expect(page).toHaveURL(/\/jobs\/job_/);
    await expect(page.getByTestId("job-id")).toBeVisible();
  } finally {
    copy.remove();
  }
});
