// Scoring a prompt on a teacher over real HTTP from the simulator through the routed pool: vLLM
// `prompt_logprobs` and SGLang `input_token_logprobs` give the same scores (the simulator's), by
// policy or by backend id; NeMo-RL `/generate` cannot score; a policy without backends, or with
// only a dead one, is an inference failure naming it.

import { StickyRouter } from "@raas/engine";
import { RoutedInferencePool } from "@raas/inference";
import { failureOf } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index";
import { simulatedPromptLogprobs } from "../src/server/simulated-prompt-logprobs";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const promptIds = [151_644, 872, 198, 9_707, 11, 1_234, 151_645];

async function poolWithSimulator() {
  const sim = await startSimulator({ latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
  cleanups.push(() => sim.close());
  const pool = new RoutedInferencePool({ router: new StickyRouter() });
  cleanups.push(() => pool.close());
  return { sim, pool };
}

async function failureMessage(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  const failure = failureOf(error);
  expect(failure?.kind).toBe("inference");
  return failure?.message ?? "";
}

describe("scoring a prompt on a teacher served by the simulator", () => {
  it("reads the same logprobs over vLLM and SGLang, null for the first token", async () => {
    const { sim, pool } = await poolWithSimulator();
    pool.registerBackend({
      id: "v",
      kind: "vllm",
      baseUrl: sim.url,
      modelName: sim.modelName,
      policyId: "tv",
    });
    pool.registerBackend({
      id: "s",
      kind: "sglang",
      baseUrl: sim.url,
      modelName: sim.modelName,
      policyId: "ts",
    });
    const expected = simulatedPromptLogprobs(promptIds);
    expect(expected[0]).toBeNull();
    const byVllm = await pool.scorePrompt({ jobId: "j", promptIds, teacher: { policyId: "tv" } });
    expect(byVllm).toEqual({ logprobs: expected, backendId: "v" });
    const bySglang = await pool.scorePrompt({ jobId: "j", promptIds, teacher: { backendId: "s" } });
    expect(bySglang).toEqual({ logprobs: expected, backendId: "s" });
    // A prefix scores as the start of the whole: a causal teacher's scores do not look ahead.
    const prefix = await pool.scorePrompt({
      jobId: "j",
      promptIds: promptIds.slice(0, 4),
      teacher: { policyId: "tv" },
    });
    expect(prefix.logprobs).toEqual(expected.slice(0, 4));
  });

  it("says a NeMo-RL backend cannot score, and names a teacher with no backend that can", async () => {
    const { sim, pool } = await poolWithSimulator();
    pool.registerBackend({
      id: "n",
      kind: "nemo-rl",
      baseUrl: sim.url,
      modelName: sim.modelName,
      policyId: "tn",
    });
    pool.registerBackend({
      id: "dead",
      kind: "vllm",
      baseUrl: "http://127.0.0.1:9",
      modelName: "m",
      policyId: "td",
    });
    const nemo = pool.scorePrompt({ jobId: "j", promptIds, teacher: { backendId: "n" } });
    expect(await failureMessage(nemo)).toMatch(/backend n is nemo-rl, which cannot score prompts/);
    const unknown = pool.scorePrompt({ jobId: "j", promptIds, teacher: { policyId: "nobody" } });
    expect(await failureMessage(unknown)).toMatch(/no backend of teacher policy nobody/);
    const unregistered = pool.scorePrompt({ jobId: "j", promptIds, teacher: { backendId: "gone" } });
    expect(await failureMessage(unregistered)).toMatch(/teacher backend gone is not registered/);
    const dead = pool.scorePrompt({ jobId: "j", promptIds, teacher: { policyId: "td" } });
    expect(await failureMessage(dead)).toMatch(/dead/);
  });
});
