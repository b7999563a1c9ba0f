import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { describeText, visibleText } from "../../apps/web/src/components/trajectories/token-text";
import { apiClient, uniqueTag } from "../support/api-client";
import { e2eUrls } from "../support/e2e-env";
import { runHarborPartialJob } from "../support/harbor-jobs";
import { saveScreenshot } from "../support/screenshot";
import { createRun, mathTasks, runStep, shownNumber, sleepTasks } from "../support/training-runs";

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

/** One run: a sleep step of 32 trajectories (more than a page) and a math step with real turns. */
let seeded: { runId: string; runName: string; sleepStep: string; mathStep: string } | undefined;

test.beforeAll(async () => {
  test.setTimeout(400_000);
  const runName = `${uniqueTag("traj")}-run`;
  const runId = await createRun(runName);
  const sleepStep = await runStep(runId, {
    tasks: sleepTasks(runName, 8, 0.5),
    groupSize: 4,
    groups: 8,
    policy: "none",
  });
  const mathStep = await runStep(runId, { tasks: mathTasks(1), groupSize: 2, groups: 1, policy: "none" });
  await apiClient("trainer").runs.finish.mutate({ runId });
  seeded = { runId, runName, sleepStep, mathStep };
});

function seed() {
  if (!seeded) throw new Error("the run was not seeded");
  return seeded;
}

test("the trajectory list filters by run, step, task and reward from the URL and pages with the cursor", async ({
  page,
}) => {
  const { runId, runName, sleepStep } = seed();
  const api = apiClient("viewer");
  const all = await api.jobs.list.query({ runId, limit: 500 });
  expect(all.items.length).toBeGreaterThan(25);

  await page.goto(`${e2eUrls().webUrl}/trajectories?runId=${runId}`);
  const rows = page.getByTestId("trajectories-table").locator("tbody tr");
  await expect(rows).toHaveCount(25);
  await expect(page.getByLabel("Run")).toHaveValue(runId);
  await expectNoBlockingViolations(page, "/trajectories");
  await saveScreenshot(page, "trajectories");
  await page.getByRole("button", { name: "Older →" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(all.items.length - 25);
  await page.getByRole("button", { name: "← Newest" }).click();
  await expect(rows).toHaveCount(25);

  // A reward range through the form: exactly the jobs the API lists for it, with their rewards.
  const solved = await api.jobs.list.query({ runId, batchId: sleepStep, minReward: 1, limit: 500 });
  await page.getByLabel("Step id").fill(sleepStep);
  await page.getByLabel("Reward ≥").fill("1");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`stepId=${sleepStep}.*minReward=1`));
  if (solved.items.length === 0) {
    await expect(page.getByTestId("state-empty")).toContainText("No trajectory matches these filters.");
  } else {
    await expect(rows).toHaveCount(solved.items.length);
    for (const job of solved.items) {
      await expect(page.getByTestId(`trajectory-${job.id}-reward`)).toHaveText(shownNumber(job.reward, 3));
    }
  }

  // A task: its group's members only.
  const taskId = `${runName}-0`;
  const ofTask = await api.jobs.list.query({ runId, taskId, limit: 500 });
  await page.goto(`${e2eUrls().webUrl}/trajectories?runId=${runId}&taskId=${taskId}`);
  await expect(rows).toHaveCount(ofTask.items.length);
  expect(ofTask.items.length).toBeGreaterThanOrEqual(4);

  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/trajectories$/);
});

test("a trajectory shows its task, turns, tool calls and a token view read with the keyboard", async ({
  page,
}) => {
  const { mathStep } = seed();
  const api = apiClient("viewer");
  const jobs = (await api.jobs.list.query({ batchId: mathStep, limit: 10 })).items;
  const job = jobs.find((candidate) => candidate.status === "completed") ?? jobs[0]!;
  const exported = await api.jobs.export.query({ jobId: job.id });
  const trajectory = await api.jobs.trajectory.query({ jobId: job.id });

  await page.goto(`${e2eUrls().webUrl}/trajectories?stepId=${mathStep}`);
  await page.getByTestId(`trajectory-row-${job.id}`).getByTestId("trajectory-link").click();
  await expect(page.getByTestId("trajectory-id")).toHaveText(job.id);
  await expect(page.getByTestId("fact-reward")).toHaveText(shownNumber(job.reward, 3));
  await expect(page.getByTestId("task-text")).toHaveText(String(job.payload.problem));
  await expect(page.getByTestId("fact-task")).toHaveText(String(job.metadata?.taskId));
  await expect(page.getByTestId("turns-section").locator("li[data-testid^='turn-']")).toHaveCount(
    trajectory.turns.length,
  );
  await expect(page.getByTestId("tool-call")).toHaveCount(trajectory.toolCalls.length);
  await expect(page.getByTestId("activity-strip")).toBeVisible();
  for (const stage of ["init", "run", "eval"]) await expect(page.getByTestId(`stage-${stage}`)).toBeVisible();

  // Keyboard: focus the first turn's tokens, step right through them.
  const first = exported.turns[0]!;
  const view = page.getByTestId(`token-view-${first.index}`);
  const stream = view.getByRole("listbox");
  await stream.focus();
  await expect(view.getByTestId("token-readout")).toContainText(
    `token ${first.start} · id ${exported.tokens[first.start]}`,
  );
  await stream.press("ArrowRight");
  const second = first.start + 1;
  await expect(view.getByTestId("token-readout")).toContainText(
    `token ${second} · id ${exported.tokens[second]}`,
  );
  await expect(view.getByTestId("token-readout")).toContainText("sampled · logprob");
  // Each token is drawn as its own text, as the server's Qwen3 tokenizer decodes it (tokens.decode),
  // and the readout quotes it; the switch shows the ids instead.
  const secondId = exported.tokens[second]!;
  const [decoded] = (await api.tokens.decode.query({ ids: [secondId] })).tokens;
  expect(decoded?.id).toBe(secondId);
  const selected = view.getByRole("option", { selected: true });
  await expect(selected).toHaveText(visibleText(decoded!.text));
  await expect(view.getByTestId("token-readout")).toContainText(describeText(decoded)!);
  await view.getByTestId("token-ids-switch").click();
  await expect(view.getByTestId("token-ids-switch")).toHaveAttribute("aria-pressed", "true");
  await expect(selected).toHaveText(String(secondId));
  await view.getByTestId("token-ids-switch").click();
  await expect(selected).toHaveText(visibleText(decoded!.text));
  // The whole turn's text, token by token, is the tokenizer's text of the sampled ids.
  const sampledIds = exported.tokens.slice(first.start, first.end);
  const pieces = [];
  for (let at = 0; at < sampledIds.length; at += 512)
    pieces.push(...(await api.tokens.decode.query({ ids: sampledIds.slice(at, at + 512) })).tokens);
  await expect(view.getByTestId("token-sampled")).toHaveText(pieces.map((piece) => visibleText(piece.text)));
  await expectNoBlockingViolations(page, "/trajectories/[jobId] (math)");

  await page.goto(`${e2eUrls().webUrl}/trajectories/job_does_not_exist`);
  await expect(page.getByTestId("state-error")).toContainText("Could not load trajectory job_does_not_exist");
});

test("a trajectory shows the per-step rewards its verifier attached, on their turns and token spans", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const jobId = await runHarborPartialJob(uniqueTag("turn-rewards"));
  const api = apiClient("viewer");
  const job = await api.jobs.get.query({ id: jobId });
  expect([job.status, job.reward]).toEqual(["completed", 0]);
  const exported = await api.jobs.export.query({ jobId });
  expect(exported.turnRewards).toHaveLength(1);
  const entry = exported.turnRewards[0]!;
  const span = exported.turns.find((turn) => turn.index === entry.turn)!;
  expect([entry.turn, entry.reward, entry.source, entry.start, entry.end]).toEqual([
    0,
    0.5,
    "verifier",
    span.start,
    span.end,
  ]);

  await page.goto(`${e2eUrls().webUrl}/trajectories/${jobId}`);
  await expect(page.getByTestId("fact-reward")).toHaveText("0");
  const section = page.getByTestId("turn-rewards");
  await expect(section.getByRole("heading")).toHaveText("Per-step rewards (1)");
  const row = section.getByTestId("turn-reward-0");
  await expect(row).toContainText("turn 0");
  await expect(row).toContainText("0.5");
  await expect(row).toContainText("verifier");
  await expect(row).toContainText("last turn that touched report.json");
  await expect(row).toContainText(`[${span.start}, ${span.end})`);
  await expect(page.getByTestId("turn-0-rewards")).toHaveText(
    "Step reward: 0.5 from verifier (last turn that touched report.json)",
  );
  await expect(page.getByTestId("turn-1-rewards")).toHaveCount(0);
  await row.getByRole("link", { name: "turn 0" }).click();
  await expect(page).toHaveURL(/#turn-0$/);
  await saveScreenshot(page, "trajectory-turn-rewards");
  await expectNoBlockingViolations(page, "/trajectories/[jobId] (harbor, per-step rewards)");
});
