import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { apiClient, uniqueTag } from "../support/api-client";
import { e2eUrls } from "../support/e2e-env";
import { runRewritingHarnessJob } from "../support/harness-jobs";
import { saveScreenshot } from "../support/screenshot";

/** Impacts that fail the scan; minor and moderate findings are reported but tolerated. */
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

// Embedded only (playwright.config.ts): the `harness` kind is registered by the server, and in
// distributed mode the server runs no pools.
test("a harness job's trajectory page shows the gateway certificate the API returns", async ({ page }) => {
  test.setTimeout(420_000);
  const jobId = await runRewritingHarnessJob(uniqueTag("gwcert"));
  const api = apiClient("viewer");
  const job = await api.jobs.get.query({ id: jobId });
  expect(job.failure).toBeNull();
  const { certificate, chains } = await api.jobs.gatewayTraces.query({ jobId });
  // The harness rewrote the question in its third call: two chains, one call merged, one break.
  expect(certificate).toMatchObject({ isCertified: false, callCount: 3, chainCount: 2, callsMerged: 1 });
  expect(certificate.breaks).toHaveLength(1);

  await page.goto(`${e2eUrls().webUrl}/trajectories/${encodeURIComponent(jobId)}`);
  const panel = page.getByTestId("gateway-certificate");
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByTestId("certificate-badge")).toHaveText("not certified");
  await expect(panel.getByTestId("certificate-certified")).toHaveText("no — a chain broke");
  await expect(panel.getByTestId("certificate-calls")).toHaveText(String(certificate.callCount));
  await expect(panel.getByTestId("certificate-chains")).toHaveText(String(certificate.chainCount));
  await expect(panel.getByTestId("certificate-merged")).toHaveText(String(certificate.callsMerged));
  await expect(panel.getByTestId("certificate-breaks")).toHaveText(String(certificate.breaks.length));
  const [broken] = certificate.breaks;
  const row = panel.getByTestId("certificate-break");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("break-position")).toHaveText(String(broken?.position));
  await expect(row.getByTestId("break-region")).toContainText(broken?.region ?? "?");
  await expect(row.getByTestId("break-expected")).toHaveText(String(broken?.expectedId ?? "—"));
  await expect(row.getByTestId("break-actual")).toHaveText(
    broken?.actualId === null ? "— (prompt ended)" : String(broken?.actualId),
  );
  await expect(panel.getByTestId("certificate-chain")).toHaveCount(chains.length);
  // A chain's stream in the token view: as many sampled tokens as its loss mask has ones.
  await panel.getByText("Chain 0:").click();
  const sampled = chains[0]?.lossMask.filter((bit) => bit === 1).length ?? 0;
  await expect(panel.getByTestId("chain-tokens-0").getByTestId("token-sampled")).toHaveCount(sampled);

  // The calls as the harness made them: its command, API shape and client, each call as sent and answered.
  const { calls, total } = await api.jobs.gatewayCalls.query({ jobId });
  expect(total).toBe(certificate.callCount);
  const listed = page.getByTestId("gateway-calls");
  await expect(listed.getByTestId("calls-harness")).toHaveText("command python3 -c …");
  await expect(listed.getByTestId("calls-api")).toHaveText("OpenAI chat completions");
  await expect(listed.getByTestId("calls-client")).toHaveText(calls[0]?.userAgent ?? "—");
  expect(calls[0]?.userAgent).toMatch(/^Python-urllib\//);
  await expect(listed.getByTestId("gateway-call")).toHaveCount(total);
  const first = listed.getByTestId("gateway-call").first();
  await first.locator("summary").click();
  await expect(first.getByTestId("gateway-call-sent")).toContainText('"role": "user"');
  await expect(first.getByTestId("gateway-call-answered")).toContainText('"role": "assistant"');
  await saveScreenshot(page, "gateway-certificate");

  await expect(page.getByTestId("state-loading")).toHaveCount(0);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""))
    .map((violation) => ({ rule: violation.id, help: violation.help, nodes: violation.nodes.length }));
  expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
});
