// Harness recipes solving SWE fixtures end to end: each real CLI, installed from npm by its
// recipe, runs in a bubblewrap sandbox with no network against the job's gateway, in the API shape
// it speaks. The simulator (the labelled test double for a GPU model) plays the harness-agnostic
// policy: it finds the CLI's own shell and write tools in the request and plays the fixture's
// script through them (look, write the patch, apply it, finish), or a wrong fix on purpose. The
// CLI executes those tool calls itself; the swe grader resolves the fixture (reward 1) or not
// (reward 0). Each job's gateway traces have sampled tokens to train on, a logprob for each, and
// are one certified chain — but for a CLI that edits the answers it sends back, which gets split
// chains, as designed. A CLI that cannot be installed fails the test with npm's words.
import { buildHarnessSwePolicyConfig } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SWE_INSTANCES, type SweFixtureServer, startSweFixtureServer } from "./support/swe-fixture-server";

/**
 * Per recipe: the fixture it solves and the one it fails (distinct, so jobs can run side by side).
 * textwrapper-5 is left out: its unfixed code loops forever, so a wrong fix waits out the test run's
 * time limit.
 */
const RECIPES = [
  { recipe: "codex", solve: SWE_INSTANCES[0]!, fail: SWE_INSTANCES[1]!, isCertified: true, chains: 1 },
  // Claude Code edits the model's answers before it sends them back: a Bash tool_use comes back
  // with its leading `cd <cwd> && ` removed (its Bash input normaliser; the policy's commands begin
  // with `cd /workspace/<repo> && `), so the call after each such answer is rendered afresh (a
  // break in the response region) and its jobs have split chains. Answers it sends back unedited
  // (its Write calls, thinking blocks dropped) continue as sampled; see
  // packages/inference/test/harness-request-bodies.test.ts for the captured bodies.
  {
    recipe: "claude-code",
    solve: SWE_INSTANCES[3]!,
    fail: SWE_INSTANCES[2]!,
    isCertified: false,
    chains: null,
  },
  { recipe: "qwen-code", solve: SWE_INSTANCES[4]!, fail: SWE_INSTANCES[6]!, isCertified: true, chains: 1 },
  // opencode asks for a title first (a call without tools): a chain of its own, then the work's.
  { recipe: "opencode", solve: SWE_INSTANCES[7]!, fail: SWE_INSTANCES[8]!, isCertified: true, chains: 2 },
];

describe("harness recipes solve and fail SWE fixtures through their own tools", () => {
  let fixture: SweFixtureServer;

  beforeAll(async () => {
    const solve = new Set(RECIPES.map(({ solve }) => solve.instance_id));
    fixture = await startSweFixtureServer({
      adminToken: "harness-recipes-swe-admin",
      name: "server-harness-recipes-swe",
      policy: buildHarnessSwePolicyConfig(SWE_INSTANCES, solve),
    });
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it.concurrent.each(RECIPES)(
    "$recipe resolves one fixture (reward 1) and not the other (reward 0)",
    async ({ recipe, solve, fail, isCertified, chains }) => {
      const { running } = fixture;
      const submitted = await Promise.all(
        [solve, fail].map((instance) =>
          running.engine.submitJob({
            kind: "harness",
            payload: { task: { instance }, recipe, timeoutMs: 300_000 },
          }),
        ),
      );
      const ids = submitted.map(({ job }) => job.id);
      const { jobs } = await running.engine.waitForJobs(ids, { timeoutMs: 900_000 });
      const [solved, failed] = ids.map((id) => jobs.find((job) => job.id === id));
      expect(solved?.failure).toBeNull();
      expect(solved).toMatchObject({ status: "completed", reward: 1, trainable: true });
      expect(solved?.result).toMatchObject({ resolved: true, emptyPatch: false });
      expect(failed?.failure).toBeNull();
      expect(failed).toMatchObject({ status: "completed", reward: 0, trainable: true });
      expect(failed?.result).toMatchObject({ resolved: false });
      for (const id of ids) {
        const traces = await running.gateway.buildTraces(id);
        const { certificate } = traces;
        expect(certificate.isCertified).toBe(isCertified);
        // Certified: every chain exact (a CLI's own side calls are chains of their own).
        expect(certificate.chainCount).toBe(chains ?? traces.chains.length);
        if (isCertified) expect(certificate.breaks).toEqual([]);
        if (!isCertified) {
          expect(certificate.breaks.every((at) => at.region === "response")).toBe(true);
          // The answers sent back unedited still continue their chains as sampled.
          expect(certificate.callsMerged).toBeGreaterThan(0);
        }
        // Look, write, apply, finish: at least the script's four calls (a CLI may add its own).
        expect(traces.certificate.callCount).toBeGreaterThanOrEqual(id === ids[0] ? 4 : 3);
        for (const chain of traces.chains) {
          const sampled = chain.lossMask.flatMap((bit, at) => (bit === 1 ? [chain.logprobs[at]] : []));
          expect(sampled.length).toBeGreaterThan(0);
          expect(sampled.every((logprob) => typeof logprob === "number")).toBe(true);
        }
      }
    },
    900_000,
  );
});
