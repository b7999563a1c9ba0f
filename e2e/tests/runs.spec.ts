import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { apiClient, uniqueTag } from "../support/api-client";
import { E2E_TOKENS, e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";
import {
  createRun,
  mathTasks,
  runStep,
  shownNumber,
  shownPercent,
  sleepTasks,
} from "../support/training-runs";

/** Impacts that fail the scan; minor and moderate findings are reported but tolerated. */
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

async function expectNoBlockingViolations(page: Page, label: string): Promise<void> {
  await expect(page.getByTestId("state-loading")).toHaveCount(0);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""))
    .map((violation) => ({
      page: label,
      rule: violation.id,
      help: violation.help,
      nodes: violation.nodes.length,
    }));
  expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
}

/**
 * Two runs trained through the API against the deployment's simulator: run A has a math step
 * (real sandboxes and model turns, every group handed out) and a zero-variance sleep step with
 * random rewards; run B one sleep step, to overlay.
 */
let seeded: { runA: string; runB: string; mathStep: string; sleepStep: string } | undefined;

test.beforeAll(async () => {
  test.setTimeout(400_000);
  const tag = uniqueTag("runs");
  const runA = await createRun(`${tag}-a`);
  const runB = await createRun(`${tag}-b`);
  const mathStep = await runStep(runA, { tasks: mathTasks(2), groupSize: 2, groups: 2, policy: "none" });
  const sleepStep = await runStep(runA, {
    tasks: sleepTasks(`${tag}-a`, 12, 0.5),
    groupSize: 3,
    groups: 2,
    policy: "zero-variance",
    maxGroups: 12,
  });
  await runStep(runB, { tasks: sleepTasks(`${tag}-b`, 6, 0.5), groupSize: 2, groups: 3, policy: "none" });
  const api = apiClient("trainer");
  await api.runs.finish.mutate({ runId: runA });
  await api.runs.finish.mutate({ runId: runB });
  seeded = { runA, runB, mathStep, sleepStep };
});

function seed() {
  if (!seeded) throw new Error("the runs were not seeded");
  return seeded;
}

test("Runs overlays the picked runs' curves from the URL and lists every run with its step count", async ({
  page,
}) => {
  const { runA, runB } = seed();
  const api = apiClient("viewer");
  const [a, b] = await Promise.all([
    api.runs.get.query({ runId: runA }),
    api.runs.get.query({ runId: runB }),
  ]);

  await page.goto(`${e2eUrls().webUrl}/runs?runs=${runA},${runB}`);
  await expect(page.getByTestId("runs-table")).toBeVisible();
  await expect(page.getByTestId(`run-${runA}-steps`)).toHaveText(String(a.stepCount));
  await expect(page.getByTestId(`run-${runB}-steps`)).toHaveText(String(b.stepCount));
  await expect(page.getByRole("checkbox", { name: `Overlay run ${a.name}` })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: `Overlay run ${b.name}` })).toBeChecked();
  for (const chart of ["reward", "solved", "informative", "tokens", "failures"]) {
    await expect(page.getByTestId(`chart-${chart}`)).toBeVisible();
  }
  // One waste ledger per overlaid run; its legend and the reward chart's name both runs.
  await expect(page.getByTestId("chart-waste")).toHaveCount(2);
  await expect(page.getByTestId("chart-reward")).toContainText(a.name);
  await expect(page.getByTestId("chart-reward")).toContainText(b.name);
  await expect(page.getByTestId("chart-reward").locator(".recharts-line")).toHaveCount(2);
  await expectNoBlockingViolations(page, "/runs");
  await saveScreenshot(page, "runs");

  // Unticking a run and switching the waste unit go into the URL.
  // A controlled checkbox: its state follows the URL, so click and wait rather than `uncheck()`.
  await page.getByRole("checkbox", { name: `Overlay run ${b.name}` }).click();
  await expect(page.getByRole("checkbox", { name: `Overlay run ${b.name}` })).not.toBeChecked();
  await expect(page).toHaveURL(new RegExp(`runs=${runA}$`));
  await expect(page.getByTestId("chart-waste")).toHaveCount(1);
  await page.getByLabel("Waste in").selectOption("tokens");
  await expect(page).toHaveURL(/waste=tokens/);
  await expect(page.getByText(/Waste ledger · .* \(generated tokens\)/)).toBeVisible();
});

test("a run's steps table shows the stored statistics the API returns", async ({ page }) => {
  const { runA } = seed();
  const steps = (await apiClient("viewer").runs.steps.query({ runId: runA })).items;
  expect(steps).toHaveLength(2);

  await page.goto(`${e2eUrls().webUrl}/runs/${runA}`);
  await expect(page.getByTestId("steps-table")).toBeVisible();
  await expect(page.getByTestId("run-step-count")).toHaveText("2");
  for (const step of steps) {
    const { stats } = step;
    const cell = (name: string) => page.getByTestId(`step-${step.index}-${name}`);
    await expect(cell("decided")).toHaveText(
      `${stats.groupsDecided} (${stats.informative} / ${stats.uninformative} / ${stats.failedGroups})`,
    );
    await expect(cell("delivered")).toHaveText(String(stats.groupsDelivered));
    await expect(cell("reward")).toHaveText(
      stats.rewardMean === null
        ? "—"
        : `${shownNumber(stats.rewardMean, 3)} ± ${shownNumber(stats.rewardStd, 3)}`,
    );
    await expect(cell("solved")).toHaveText(shownPercent(stats.solvedFraction));
    await expect(cell("informative")).toHaveText(
      shownPercent(stats.groupsDecided > 0 ? stats.informative / stats.groupsDecided : null),
    );
    await expect(cell("tokens")).toHaveText(shownNumber(stats.meanTrajectoryTokens, 1));
    await expect(cell("jobs")).toHaveText(`${stats.jobsSubmitted} (${stats.jobsCancelled})`);
  }
  await expectNoBlockingViolations(page, "/runs/[runId]");
  await saveScreenshot(page, "run-detail");
});

test("from a run to a step's groups to a member's trajectory and its token view", async ({ page }) => {
  const { runA, mathStep } = seed();
  const api = apiClient("viewer");
  const step = await api.steps.get.query({ stepId: mathStep });
  const groups = (await api.steps.groups.query({ stepId: mathStep })).items;
  expect(groups).toHaveLength(2);

  await page.goto(`${e2eUrls().webUrl}/runs/${runA}`);
  await page.getByTestId(`step-link-${step.index}`).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runA}/steps/${mathStep}$`));
  await expect(page.getByTestId("step-id")).toHaveText(mathStep);
  await expect(page.getByTestId("stat-delivered")).toHaveText(String(step.stats.groupsDelivered));
  await expect(page.getByTestId("stat-reward")).toHaveText(shownNumber(step.stats.rewardMean, 3));
  await expect(page.getByTestId("stat-solved")).toHaveText(shownPercent(step.stats.solvedFraction));
  await expect(page.getByTestId("waste-cancelled-jobs")).toHaveText(String(step.stats.waste.cancelled.jobs));
  for (const group of groups) {
    await expect(page.getByTestId(`group-${group.id}-decision`)).toHaveText(group.decision);
    await expect(page.getByTestId(`group-${group.id}-state`)).toHaveText(group.state);
    for (const member of group.members) {
      await expect(page.getByTestId(`member-${group.id}-${member.slot}`)).toContainText(
        member.reward === null ? member.status : `reward ${shownNumber(member.reward, 3)}`,
      );
    }
  }
  await expectNoBlockingViolations(page, "/runs/[runId]/steps/[stepId]");
  await saveScreenshot(page, "step-detail");

  const member = groups[0]!.members[0]!;
  await page.getByTestId(`member-${groups[0]!.id}-0`).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/trajectories/${member.jobId}$`));
  await expect(page.getByTestId("trajectory-id")).toHaveText(member.jobId);

  const exported = await api.jobs.export.query({ jobId: member.jobId });
  const trajectory = await api.jobs.trajectory.query({ jobId: member.jobId });
  expect(exported.turns.length).toBeGreaterThan(0);
  const first = exported.turns[0]!;
  const view = page.getByTestId(`token-view-${first.index}`);
  await expect(view.getByTestId("token-sampled")).toHaveCount(first.end - first.start);
  const turn = trajectory.turns.find((candidate) => candidate.index === first.index)!;
  await expect(page.getByTestId(`turn-${first.index}-cached`)).toHaveText(
    turn.cachedPromptTokens === null ? "unknown cached" : `${turn.cachedPromptTokens} cached`,
  );
  // Hovering a sampled token reads out its id and logprob, exactly as exported.
  const token = view.getByTestId("token-sampled").first();
  await token.hover();
  const logprob = exported.logprobs[first.start];
  await expect(view.getByTestId("token-readout")).toContainText(
    `token ${first.start} · id ${exported.tokens[first.start]} · sampled · ${
      logprob === null || logprob === undefined ? "no logprob" : `logprob ${logprob.toFixed(3)}`
    }`,
  );
  // The observation after a tool call is greyed: loss mask 0.
  if (exported.turns.length > 1) {
    await expect(view.getByTestId("token-masked")).toHaveCount(exported.turns[1]!.start - first.end);
  }
  await expectNoBlockingViolations(page, "/trajectories/[jobId]");
  await saveScreenshot(page, "trajectory-detail");

  const download = await page.request.get(`${e2eUrls().webUrl}/trajectories/${member.jobId}/export`);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toContain("application/x-ndjson");
  const lines = (await download.text()).split("\n").filter((line) => line !== "");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({
    jobId: member.jobId,
    tokens: exported.tokens,
    lossMask: exported.lossMask,
  });

  // With a token entered, the export link sends it (a plain link could not): a token the server
  // does not know is refused with its sentence, the viewer token downloads the row.
  await page.getByLabel("API token").fill("e2e-not-a-token");
  await page.getByRole("button", { name: "Use token" }).click();
  await page.getByTestId("export-link").click();
  await expect(page.getByTestId("export-error")).toContainText("the bearer token is not valid");
  await page.getByRole("button", { name: "Forget token" }).click();
  await page.getByLabel("API token").fill(E2E_TOKENS.viewer);
  await page.getByRole("button", { name: "Use token" }).click();
  const exportRequest = page.waitForRequest((request) =>
    request.url().endsWith(`/trajectories/${member.jobId}/export`),
  );
  const saved = page.waitForEvent("download");
  await page.getByTestId("export-link").click();
  expect((await exportRequest).headers().authorization).toBe(`Bearer ${E2E_TOKENS.viewer}`);
  const file = await (await saved).path();
  const row = JSON.parse(readFileSync(file, "utf8").trim()) as { jobId: string; tokens: number[] };
  expect(row).toMatchObject({ jobId: member.jobId, tokens: exported.tokens });
  await expect(page.getByTestId("export-error")).toHaveCount(0);
  await page.getByRole("button", { name: "Forget token" }).click();
});
