import { expect, test } from "@playwright/test";
import { visibleText } from "../../apps/web/src/components/trajectories/token-text";
import { runMathJobs } from "../support/agent-jobs";
import { apiClient, uniqueTag } from "../support/api-client";
import { e2eUrls } from "../support/e2e-env";
import { saveScreenshot } from "../support/screenshot";

const TOP_K = 3;

test("a trajectory recorded with top-k logprobs shows each sampled token's alternatives and weight version", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const trainer = apiClient("trainer");
  // The policy's backends serve the next integer weight version: its turns carry it, and the
  // export's `versions` says it per sampled token.
  const policy = await trainer.policy.get.query({});
  const version = (policy.weightVersion ?? 0) + 1;
  await trainer.policy.setWeightVersion.mutate({ weightVersion: version });
  const [jobId] = await runMathJobs(uniqueTag("topk"), 1, { agent: { topLogprobs: TOP_K } });

  const api = apiClient("viewer");
  const exported = await api.jobs.export.query({ jobId: jobId! });
  const first = exported.turns[0]!;
  const alternatives = exported.topLogprobs?.[first.start];
  expect(alternatives).toHaveLength(TOP_K);
  expect(exported.versions[first.start]).toBe(version);

  await page.goto(`${e2eUrls().webUrl}/trajectories/${jobId}`);
  const view = page.getByTestId(`token-view-${first.index}`);
  // Focus selects the turn's first sampled token: the readout says its integer weight version and
  // its alternatives; the panel lists them, most likely first, with the sampled one marked.
  await view.getByRole("listbox").focus();
  const readout = view.getByTestId("token-readout");
  await expect(readout).toContainText(`token ${first.start} · id ${exported.tokens[first.start]}`);
  await expect(readout).toContainText(`version ${version}`);
  await expect(readout).toContainText(`top ${TOP_K}:`);
  const rows = view.getByTestId("token-alternative");
  await expect(rows).toHaveCount(TOP_K);
  for (const [i, alternative] of alternatives!.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-token-id", String(alternative.tokenId));
    await expect(rows.nth(i)).toContainText(`logprob ${alternative.logprob.toFixed(3)}`);
  }
  const sampled = view.locator("[data-testid='token-alternative'][data-sampled='true']");
  await expect(sampled).toHaveCount(1);
  await expect(sampled).toHaveAttribute("data-token-id", String(exported.tokens[first.start]));
  // Each alternative is named by its text, as the server's tokenizer decodes it (tokens.decode).
  const decoded = await api.tokens.decode.query({
    ids: alternatives!.map((alternative) => alternative.tokenId),
  });
  for (const [i, piece] of decoded.tokens.entries()) {
    if (!piece.isPartial) await expect(rows.nth(i)).toContainText(visibleText(piece.text));
  }

  await saveScreenshot(page, "trajectory-token-alternatives");

  // Moving on updates the panel; every sampled token's tooltip carries its version and alternatives.
  await view.getByRole("listbox").press("ArrowRight");
  await expect(rows.first()).toHaveAttribute(
    "data-token-id",
    String(exported.topLogprobs?.[first.start + 1]?.[0]?.tokenId),
  );
  const token = view.locator(`[data-pos='${first.start}']`);
  await expect(token).toHaveAttribute("data-version", String(version));
  await expect(token).toHaveAttribute("title", new RegExp(`version ${version} .*top ${TOP_K}: `));
  // One version across the trajectory: nothing to tell apart, so no version key.
  expect(new Set(exported.versions.filter((_, i) => exported.lossMask[i] === 1))).toEqual(new Set([version]));
  await expect(page.getByTestId("version-legend")).toHaveCount(0);
  // A prompt token has no alternatives: the panel says how to see them.
  await view.locator("[data-testid='token-masked']").first().hover();
  await expect(view.getByTestId("token-alternatives")).toContainText("Hover or select a sampled token");
});
