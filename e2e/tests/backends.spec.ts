import { expect, test } from "@playwright/test";
import { formatPercent } from "../../apps/web/src/lib/format";
import { runMathJobs } from "../support/agent-jobs";
import { apiClient, uniqueTag } from "../support/api-client";
import { E2E_TOKENS, e2eMode, e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";

test("Backends shows each backend's state and statistics and a hit-rate line per backend", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const api = apiClient("viewer");
  await page.goto(`${e2eUrls().webUrl}/backends`);
  await expect(page.getByTestId("backends-table")).toBeVisible();
  await expect(page.getByTestId("hit-rate-chart")).toContainText("Sampled in this browser every 2 s");

  // Real turns while the page samples: in embedded mode they run through the server's own pool.
  await runMathJobs(uniqueTag("be"), 3);
  // Distributed, the worker's counters reach the server with its next heartbeat: wait for them.
  await expect
    .poll(async () => (await api.backends.list.query()).backends[0]?.stats.requests ?? 0, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(6);
  await expect(async () => {
    const { backends } = await api.backends.list.query();
    const quick = { timeout: 2_500 };
    await expect(page.getByTestId("backends-count")).toHaveText(String(backends.length), quick);
    for (const backend of backends) {
      const { id, stats } = backend;
      await expect(page.getByTestId(`backend-lifecycle-${id}`)).toHaveText(backend.lifecycle, quick);
      await expect(page.getByTestId(`backend-circuit-${id}`)).toHaveText(backend.circuit, quick);
      await expect(page.getByTestId(`backend-inflight-${id}`)).toHaveText(
        `${backend.inFlight} / ${backend.maxConcurrency}`,
        quick,
      );
      await expect(page.getByTestId(`backend-requests-${id}`)).toHaveText(
        `${stats.requests} (${stats.errors})`,
        quick,
      );
      await expect(page.getByTestId(`backend-hit-rate-${id}`)).toHaveText(
        formatPercent(stats.prefixCacheHitRate),
        quick,
      );
      await expect(page.getByTestId(`backend-weights-${id}`)).toHaveText(
        backend.weightVersion ?? "unknown",
        quick,
      );
      await expect(page.getByTestId(`backend-workers-${id}`)).toHaveText(
        backend.workers?.length ? String(backend.workers.length) : "—",
        quick,
      );
    }
  }).toPass({ timeout: 60_000 });

  const { backends } = await api.backends.list.query();
  expect(backends.length).toBeGreaterThanOrEqual(1);
  // Embedded, the server's pool sent the turns; distributed, the worker's did and its heartbeats
  // brought its counters to the server. Either way they moved, and the simulator's prefix cache
  // served part.
  expect(backends[0]!.stats.requests).toBeGreaterThanOrEqual(6);
  expect(backends[0]!.stats.prefixCacheHitRate).toBeGreaterThan(0);
  if (e2eMode() === "distributed") {
    // The API-only server routes nothing itself: the figures are the one worker's.
    expect(backends[0]!.workers).toEqual([
      expect.objectContaining({ requests: backends[0]!.stats.requests }),
    ]);
  }
  const chart = page.getByTestId("hit-rate-chart");
  await expect(chart.getByRole("application")).toBeVisible();
  await expect(chart.locator(".recharts-legend-item")).toHaveText(backends.map((backend) => backend.id));
  await saveScreenshot(page, `backends-${e2eMode()}`);

  await page.getByLabel("hit rate", { exact: true }).selectOption("cumulative");
  await expect(page).toHaveURL(/rate=cumulative/);
  await page.reload();
  await expect(page.getByLabel("hit rate", { exact: true })).toHaveValue("cumulative");
});

test("draining, resuming, registering and removing a backend need the admin token; a viewer cannot", async ({
  page,
}) => {
  const admin = apiClient("admin");
  const [backend] = (await admin.backends.list.query()).backends;
  if (!backend) throw new Error("the e2e deployment lists no backend");
  const extraId = uniqueTag("e2e-extra");
  try {
    await page.goto(`${e2eUrls().webUrl}/backends`);
    const drain = page.getByRole("button", { name: `Drain ${backend.id}` });
    const reason = page.getByTestId("backend-write-reason");

    // A viewer without a token reads everything but every write is disabled, with the reason.
    await expect(page.getByTestId("token-status")).toHaveText("read-only (no token)");
    await expect(drain).toBeDisabled();
    await expect(page.getByRole("button", { name: `Remove ${backend.id}` })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Register" })).toBeDisabled();
    await expect(reason).toContainText("needs the admin token");

    // The trainer token is not enough.
    await page.getByLabel("API token").fill(E2E_TOKENS.trainer);
    await page.getByRole("button", { name: "Use token" }).click();
    await expect(page.getByTestId("token-status")).toHaveText("token: not admin");
    await expect(drain).toBeDisabled();
    await expect(reason).toContainText("not it");
    await page.getByRole("button", { name: "Forget token" }).click();

    // The admin token: drain, see the state change, resume.
    await page.getByLabel("API token").fill(E2E_TOKENS.admin);
    await page.getByRole("button", { name: "Use token" }).click();
    await expect(page.getByTestId("token-status")).toHaveText("admin token");
    await expect(reason).toHaveCount(0);
    await drain.click();
    const lifecycle = page.getByTestId(`backend-lifecycle-${backend.id}`);
    await expect(lifecycle).toHaveText(/^drain(ing|ed)$/);
    expect((await admin.backends.list.query()).backends.find((b) => b.id === backend.id)?.lifecycle).toMatch(
      /^drain(ing|ed)$/,
    );
    await saveScreenshot(page, `backends-drained-${e2eMode()}`);
    await page.getByRole("button", { name: `Resume ${backend.id}` }).click();
    await expect(lifecycle).toHaveText("active");
    expect((await admin.backends.list.query()).backends.find((b) => b.id === backend.id)?.lifecycle).toBe(
      "active",
    );

    // Register a second backend (the same simulator under another id), then remove it.
    await page.getByLabel("base URL").fill(backend.baseUrl);
    await page.getByLabel("id (default host:port)").fill(extraId);
    await page.getByLabel("weight version").fill("step-7");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText(`Registered ${extraId}.`)).toBeVisible();
    await expect(page.getByTestId(`backend-weights-${extraId}`)).toHaveText("step-7");
    await page.getByRole("button", { name: `Remove ${extraId}` }).click();
    await page.getByRole("button", { name: `Confirm removing ${extraId}` }).click();
    await expect(page.getByTestId(`backend-${extraId}`)).toHaveCount(0);
    expect((await admin.backends.list.query()).backends.map((b) => b.id)).not.toContain(extraId);
  } finally {
    // Leave the deployment as the other specs expect it, whatever happened above.
    await admin.backends.resume.mutate({ id: backend.id });
    await admin.backends.remove.mutate({ id: extraId }).catch(() => undefined);
  }
});
