import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { apiClient, uniqueTag } from "../support/api-client";
import { e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";

const ENVIRONMENTS = fileURLToPath(new URL("../../environments/", import.meta.url));

test("Environments lists the registered environments with their task counts and oracle checks", async ({
  page,
}) => {
  const tag = uniqueTag("env");
  const admin = apiClient("admin");
  const harbor = `${tag}-harbor`;
  const math = `${tag}-math`;
  await admin.environments.register.mutate({ path: `${ENVIRONMENTS}harbor-examples`, name: harbor });
  await admin.environments.register.mutate({ path: `${ENVIRONMENTS}math-verify`, name: math });
  // An oracle check as `raas env verify <name>` stores it: one task of twenty failing.
  const rows = Array.from({ length: 20 }, (_, index) => ({
    task: `math-verify-${String(index).padStart(2, "0")}`,
    oracleReward: index === 3 ? 0 : 1,
    noopReward: 0,
    verdict: index === 3 ? ("fail" as const) : ("pass" as const),
    reasons: index === 3 ? ["oracle: reward 0, expected 1"] : [],
    seconds: 1.5,
  }));
  await apiClient("trainer").environments.recordOracle.mutate({
    name: math,
    oracle: { checkedAtMs: Date.now(), passed: 19, failed: 1, skipped: 0, rows },
  });
  const { environments } = await apiClient("viewer").environments.list.query();

  await page.goto(`${e2eUrls().webUrl}/`);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Environments" }).click();
  await expect(page).toHaveURL(/\/environments$/);
  await expect(page.getByRole("heading", { name: "Environments", level: 1 })).toBeVisible();
  await expect(page.getByTestId("environments-count")).toContainText(String(environments.length));
  await expect(page.getByTestId(`env-kind-${harbor}`)).toHaveText("harbor");
  await expect(page.getByTestId(`env-tasks-${harbor}`)).toHaveText("5");
  await expect(page.getByTestId(`env-oracle-${harbor}`)).toHaveText("not checked");
  await expect(page.getByTestId(`env-kind-${math}`)).toHaveText("reward-fn");
  await expect(page.getByTestId(`env-tasks-${math}`)).toHaveText("20");
  await expect(page.getByTestId(`env-oracle-${math}`)).toHaveText("19 / 20 pass · 1 fail");
  await expect(page.getByTestId(`env-name-${math}`)).toContainText("arithmetic");
  await saveScreenshot(page, `environments-${test.info().project.name}`);
});
