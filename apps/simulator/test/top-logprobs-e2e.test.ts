// Top-k logprobs end to end: a math job asking for `agent.topLogprobs: 3` → agent loop → routed
// pool → vLLM codec → in-process simulator (which reports deterministic alternatives) → stored
// turns → training export. A job that asks for none gets none; a bad k is refused at submit.
import { failureOf, type TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput } from "../src/index";
import { type RolloutFixture, readDataJson, readTasks, startRolloutFixture } from "./support/rollout-fixture";

const policy = readDataJson<TPolicyConfigInput>("simulator/math-code-stem.policy.json");
const [task] = readTasks<Record<string, unknown>>("math.jsonl");

/** The stored logprobs are Float32: equal to the alternative's logprob at that precision. */
const asFloat32 = (value: number) => Math.fround(value);

describe("top-k logprobs through the simulator", () => {
  let fixture: RolloutFixture;
  let asked: TJob;
  let notAsked: TJob;

  beforeAll(async () => {
    fixture = await startRolloutFixture({ policy, config: { agent: { sampling: { seed: 7 } } } });
    const submitted = await fixture.engine.submitJobs([
      { kind: "math", payload: { ...task, agent: { topLogprobs: 3 } } },
      { kind: "math", payload: { ...task } },
    ]);
    const waited = await fixture.engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: 120_000 },
    );
    [asked, notAsked] = waited.jobs as [TJob, TJob];
  }, 180_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("stores 3 alternatives per response token, the sampled one among them with its logprob", async () => {
    expect(asked.status).toBe("completed");
    const { turns } = await fixture.engine.getTrajectory(asked.id);
    expect(turns.length).toBeGreaterThan(1);
    for (const turn of turns) {
      expect(turn.topLogprobs).toHaveLength(turn.responseIds.length);
      turn.responseIds.forEach((id, i) => {
        const alternatives = turn.topLogprobs?.[i] ?? [];
        expect(alternatives).toHaveLength(3);
        const sampled = alternatives.find((alt) => alt.tokenId === id);
        expect(sampled).toBeDefined();
        expect(asFloat32(sampled?.logprob ?? Number.NaN)).toBe(asFloat32(turn.logprobs[i] as number));
        const sorted = [...alternatives].sort((a, b) => b.logprob - a.logprob);
        expect(alternatives).toEqual(sorted);
      });
    }
  });

  it("exports them aligned to the sampled tokens, null on prompt and observation tokens", async () => {
    const row = await fixture.engine.exportTrajectory(asked.id);
    const { turns } = await fixture.engine.getTrajectory(asked.id);
    expect(row.tokenExact).toBe(true);
    expect(row.topLogprobs).toHaveLength(row.tokens.length);
    row.lossMask.forEach((mask, i) => {
      const alternatives = row.topLogprobs?.[i];
      if (mask === 0) expect(alternatives).toBeNull();
      else expect(alternatives?.map((alt) => alt.tokenId)).toContain(row.tokens[i]);
    });
    for (const [t, span] of row.turns.entries()) {
      expect(row.topLogprobs?.slice(span.start, span.end)).toEqual(turns[t]?.topLogprobs);
    }
  });

  it("keeps nothing when the job asks for none", async () => {
    expect(notAsked.status).toBe("completed");
    const { turns } = await fixture.engine.getTrajectory(notAsked.id);
    for (const turn of turns) expect(turn.topLogprobs ?? null).toBeNull();
    expect(await fixture.engine.exportTrajectory(notAsked.id)).not.toHaveProperty("topLogprobs");
  });

  it("refuses k outside 1..20 at submit with a message naming the field", async () => {
    for (const topLogprobs of [0, 21, 2.5]) {
      let thrown: unknown;
      try {
        await fixture.engine.submitJob({ kind: "math", payload: { ...task, agent: { topLogprobs } } });
      } catch (error) {
        thrown = error;
      }
      const failure = failureOf(thrown);
      expect(failure?.kind === "request" && failure.code).toBe("VALIDATION_FAILED");
      expect(failure?.message).toMatch(/agent\.topLogprobs/);
    }
  });
});
