// Top-k logprobs over real HTTP from the simulator through the routed pool, for each wire
// protocol that has them: vLLM (streamed and whole) and SGLang.
import { StickyRouter } from "@raas/engine";
import { RoutedInferencePool } from "@raas/inference";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const CASES = [
  { kind: "vllm", streamGenerations: true },
  { kind: "vllm", streamGenerations: false },
  { kind: "sglang", streamGenerations: false },
] as const;

describe("top-k logprobs from the simulator", () => {
  for (const { kind, streamGenerations } of CASES) {
    it(`${kind}${streamGenerations ? " (streamed)" : ""}: k alternatives per token, the sampled one among them`, async () => {
      const sim = await startSimulator({ latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
      cleanups.push(() => sim.close());
      const pool = new RoutedInferencePool({ router: new StickyRouter(), streamGenerations });
      cleanups.push(() => pool.close());
      pool.registerBackend({ id: "s", kind, baseUrl: sim.url, modelName: sim.modelName });
      const request = {
        jobId: "j",
        promptIds: [151_644, 872, 198, 9_707],
        sampling: { maxTokens: 32, seed: 3 },
      };
      const asked = await pool.generate({ ...request, sampling: { ...request.sampling, topLogprobs: 4 } });
      expect(asked.responseIds.length).toBeGreaterThan(0);
      expect(asked.topLogprobs).toHaveLength(asked.responseIds.length);
      asked.responseIds.forEach((id, i) => {
        const alternatives = asked.topLogprobs?.[i] ?? [];
        expect(alternatives).toHaveLength(4);
        expect(alternatives.find((alt) => alt.tokenId === id)?.logprob).toBe(asked.logprobs[i]);
      });
      const again = await pool.generate({ ...request, sampling: { ...request.sampling, topLogprobs: 4 } });
      expect(again.topLogprobs).toEqual(asked.topLogprobs);
      expect(await pool.generate(request)).not.toHaveProperty("topLogprobs");
    });
  }
});
