import { expect, test } from "@playwright/test";
import { QUICK_SLEEP, submitAndFinish, uniqueTag } from "../support/api-client";
import { e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";

test("Jobs list filters by status and failure kind, searches, pages with a cursor, keeps filters in the URL", async ({
  page,
}) => {
  const tag = uniqueTag("jl");
  await submitAndFinish([
    ...Array.from({ length: 23 }, (_, i) => ({ jobKey: `${tag}-ok-${String(i).padStart(2, "0")}` })),
    ...Array.from({ length: 2 }, (_, i) => ({
      jobKey: `${tag}-sbx-${i}`,
      payload: { ...QUICK_SLEEP, fail: { init: { rate: 1, kind: "sandbox" } } },
    })),
  ]);
  const rows = page.getByTestId("job-row");

  // Search narrows to this test's 25 jobs: one full page of 20, then 5 behind the cursor.
  await page.goto(`${e2eUrls().webUrl}/jobs?search=${tag}`);
  await expect(rows).toHaveCount(20);
  await saveScreenshot(page, "jobs");
  await page.getByRole("button", { name: "Older jobs →" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(5);
  await page.getByRole("button", { name: "← Newest jobs" }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(20);

  // Status filter: only the two failed jobs, and the filter lands in the URL.
  await page.getByLabel("status").selectOption("failed");
  await expect(page).toHaveURL(/status=failed/);
  await expect(rows).toHaveCount(2);
  for (const badge of await rows.getByTestId("status-badge").all()) await expect(badge).toHaveText("failed");
  await expect(rows.first()).toContainText("sandbox in init");

  // Failure kind filter, and the URL survives a reload.
  await page.getByLabel("failure kind").selectOption("sandbox");
  await expect(page).toHaveURL(/failureKind=sandbox/);
  await page.reload();
  await expect(page.getByLabel("status")).toHaveValue("failed");
  await expect(page.getByLabel("failure kind")).toHaveValue("sandbox");
  await expect(rows).toHaveCount(2);

  // A filter that matches nothing says so and how to get out.
  await page.getByLabel("failure kind").selectOption("timeout");
  await expect(page.getByTestId("state-empty")).toContainText("No jobs match these filters");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/status=|failureKind=|search=/);

  // Search for one key, open it.
  const key = `${tag}-ok-07`;
  await page.getByLabel("id or key contains").fill(key);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`search=${key}`));
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/jobs\/job_/);
  await expect(page.getByTestId("fact-key")).toHaveText(key);
  await expect(page.getByTestId("fact-status")).toHaveText("completed");
});
