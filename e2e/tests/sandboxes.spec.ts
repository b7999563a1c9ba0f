import { expect, test } from "@playwright/test";
import { groupLimitHits } from "../../apps/web/src/lib/charts/limit-hits";
import { recentSandboxFailures } from "../../apps/web/src/lib/charts/sandbox-failures";
import { formatDurationMs } from "../../apps/web/src/lib/format";
import { runMathJobs } from "../support/agent-jobs";
import { apiClient, uniqueTag } from "../support/api-client";
import { e2eMode, e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";

const SANDBOX_STATES = ["starting", "ready", "busy", "closing", "closed", "failed"] as const;

test("Sandboxes shows the counts, latency, limit hits, failures and worker load the API reports", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const api = apiClient("viewer");
  const tag = uniqueTag("sb");
  const jobIds = await runMathJobs(tag, 3, { passMemoryLimit: true });
  // Hosts store sandbox events in batches off the rollout's path (every 250 ms, later under
  // load): a job can be terminal before its sandbox's events are written.
  let hostId = "";
  await expect(async () => {
    const { events } = await api.sandboxes.events.query({ jobId: jobIds[0]! });
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["created", "ready"]));
    hostId = events[0]!.hostId!;
  }).toPass({ timeout: 30_000 });

  await page.goto(`${e2eUrls().webUrl}/sandboxes`);
  await expect(page.getByRole("heading", { name: "Sandboxes", level: 1 })).toBeVisible();

  // The page polls; compare against fresh API answers until both agree.
  await expect(async () => {
    const summary = await api.sandboxes.summary.query({});
    expect(summary.sandboxes).toBeGreaterThanOrEqual(4);
    // The allocating job's sandbox ran into its memory limit: counted (and shown below) as a memory hit.
    expect(
      groupLimitHits(summary.limitHits).find((row) => row.family === "memory")?.hits,
    ).toBeGreaterThanOrEqual(1);
    const quick = { timeout: 2_500 };
    await expect(page.getByTestId("sandbox-total")).toHaveText(String(summary.sandboxes), quick);
    for (const state of SANDBOX_STATES) {
      await expect(page.getByTestId(`sandbox-state-${state}`)).toHaveText(
        String(summary.byState[state] ?? 0),
        quick,
      );
    }
    await expect(page.getByTestId("sandbox-crashed")).toHaveText(String(summary.crashed), quick);
    await expect(page.getByTestId("sandbox-start-failed")).toHaveText(String(summary.startFailed), quick);
    await expect(page.getByTestId("ready-mean")).toHaveText(formatDurationMs(summary.meanReadyMs), quick);
    for (const row of groupLimitHits(summary.limitHits)) {
      await expect(page.getByTestId(`limit-hits-${row.family}`)).toHaveText(String(row.hits), quick);
    }
    const ready = await api.sandboxes.events.query({ type: "ready", limit: 1_000 });
    await expect(page.getByTestId("ready-count")).toHaveText(String(ready.events.length), quick);
    const failureEvents = await Promise.all(
      [
        { type: "crashed", limit: 50 },
        { type: "start_failed", limit: 50 },
        { type: "closed", limit: 500 },
      ].map((filter) => api.sandboxes.events.query(filter as { type: "closed"; limit: number })),
    );
    const failures = recentSandboxFailures(failureEvents.flatMap((answer) => answer.events));
    await expect(page.getByTestId("sandbox-failure")).toHaveCount(failures.length, quick);
    const seen = await api.sandboxes.summary.query({ hostId });
    await expect(page.getByTestId(`worker-seen-${hostId}`)).toHaveText(String(seen.sandboxes), quick);
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("ready-histogram").getByRole("application")).toBeVisible();

  // The limits in force come from system.health: the embedded server runs the sandboxes itself;
  // the API-only server of the distributed mode runs none and says so.
  const health = await api.system.health.query();
  if (health.sandboxLimits) {
    await expect(page.getByTestId("limit-runtime")).toHaveText(health.sandboxLimits.runtime);
  } else {
    await expect(page.getByText("This server reports no sandbox limits.")).toBeVisible();
  }
  await saveScreenshot(page, `sandboxes-${e2eMode()}`);

  // Filters land in the URL and narrow the numbers to one worker and a window.
  await page.getByLabel("worker", { exact: true }).selectOption(hostId);
  await expect(page).toHaveURL(new RegExp(`host=${encodeURIComponent(hostId)}`));
  await page.getByLabel("created in", { exact: true }).selectOption("15m");
  await expect(page).toHaveURL(/since=15m/);
  await expect(async () => {
    const narrowed = await api.sandboxes.summary.query({ hostId, sinceMs: Date.now() - 15 * 60_000 });
    expect(narrowed.sandboxes).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId("sandbox-total")).toHaveText(String(narrowed.sandboxes), {
      timeout: 2_500,
    });
  }).toPass({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByLabel("worker", { exact: true })).toHaveValue(hostId);
  await expect(page.getByLabel("created in", { exact: true })).toHaveValue("15m");
});
