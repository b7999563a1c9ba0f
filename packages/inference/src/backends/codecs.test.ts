import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type InferenceFailure, isInferenceFailure } from "../inference-failure";
import { nemoGenerateCodec } from "./nemo-generate.codec";
import { readPrometheusMetric } from "./prometheus-counters.parser";
import { sglangGenerateCodec } from "./sglang-generate.codec";
import { vllmCompletionsCodec } from "./vllm-completions.codec";
import { readVllmMetrics } from "./vllm-metrics.parser";

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url), "utf8"));

const TOOL_CALL_IDS = [
  151_667, 198, 852, 279, 3_542, 1_156, 624, 151_668, 271, 151_657, 198, 4_913, 606, 788, 330, 46_216, 497,
  330, 16_370, 788, 5_212, 5_631, 788, 330, 4_730, 95_642, 151_658, 151_645,
];

function failureOf(fn: () => unknown): InferenceFailure {
  try {
    fn();
  } catch (error) {
    if (isInferenceFailure(error)) return error;
    throw error;
  }
  throw new Error("expected an InferenceFailure");
}

describe("vLLM /v1/completions codec", () => {
  it("builds a token-id request with every sampling parameter", () => {
    const body = vllmCompletionsCodec.buildRequest(
      {
        promptIds: [1, 2, 3],
        sampling: { maxTokens: 64, temperature: 0.7, topP: 0.9, topK: 20, seed: 5, stopTokenIds: [9] },
      },
      "Qwen/Qwen3-8B",
    );
    expect(body).toMatchObject({
      model: "Qwen/Qwen3-8B",
      prompt: [1, 2, 3],
      max_tokens: 64,
      temperature: 0.7,
      top_p: 0.9,
      top_k: 20,
      seed: 5,
      stop_token_ids: [9],
      logprobs: 0,
      return_token_ids: true,
      min_p: 0,
    });
  });

  it("sends no-cut top_k and min_p when the job sets none, so no server default narrows the distribution", () => {
    const sampling = { maxTokens: 8 };
    const vllm = vllmCompletionsCodec.buildRequest({ promptIds: [1], sampling }, "m");
    expect(vllm).toMatchObject({ temperature: 1, top_p: 1, top_k: -1, min_p: 0 });
    const sglang = sglangGenerateCodec.buildRequest({ promptIds: [1], sampling }, "m") as {
      sampling_params: Record<string, unknown>;
    };
    expect(sglang.sampling_params).toMatchObject({ temperature: 1, top_p: 1, top_k: -1, min_p: 0 });
    const nemo = nemoGenerateCodec.buildRequest({ promptIds: [1], sampling }, "m");
    expect(nemo).toMatchObject({ temperature: 1, top_p: 1, top_k: -1 });
  });

  it("reads ids, logprobs, finish reason and cached tokens from a vLLM 0.10 response", () => {
    const parsed = vllmCompletionsCodec.parseResponse(fixture("vllm-completions-v0.10.json"), "b1");
    expect(parsed.responseIds).toEqual(TOOL_CALL_IDS);
    expect(parsed.logprobs).toHaveLength(TOOL_CALL_IDS.length);
    expect(parsed.finishReason).toBe("stop");
    expect(parsed.cachedPromptTokens).toBe(1_168);
  });

  it("falls back to token_id:<n> tokens of older versions; cached tokens unknown", () => {
    const parsed = vllmCompletionsCodec.parseResponse(fixture("vllm-completions-v0.9.json"), "b1");
    expect(parsed.responseIds).toEqual([785, 4_226, 374, 220, 19, 17, 13, 151_645]);
    expect(parsed.cachedPromptTokens).toBeNull();
  });

  it("names the missing field when token ids cannot be recovered", () => {
    const failure = failureOf(() =>
      vllmCompletionsCodec.parseResponse(fixture("vllm-completions-text-tokens.json"), "b1"),
    );
    expect(failure.failure).toMatchObject({
      kind: "inference",
      inference: { reason: "bad-response", backendId: "b1" },
    });
    expect(failure.message).toMatch(/choices\[0\]\.token_ids is missing \(send return_token_ids: true/);
    expect(failureOf(() => vllmCompletionsCodec.parseResponse({ choices: [] }, null)).message).toMatch(
      /choices is empty/,
    );
    expect(failureOf(() => vllmCompletionsCodec.parseResponse({ object: "error" }, null)).message).toMatch(
      /choices is missing or not an array/,
    );
    const noLogprobs = fixture("vllm-completions-v0.10.json");
    (noLogprobs.choices as Record<string, unknown>[])[0]!.logprobs = null;
    expect(failureOf(() => vllmCompletionsCodec.parseResponse(noLogprobs, null)).message).toMatch(
      /choices\[0\]\.logprobs is missing/,
    );
  });
});

describe("SGLang /generate codec", () => {
  it("builds input_ids + sampling_params with return_logprob", () => {
    expect(
      sglangGenerateCodec.buildRequest({ promptIds: [4, 5], sampling: { maxTokens: 8, seed: 1 } }, "m"),
    ).toMatchObject({
      input_ids: [4, 5],
      sampling_params: { max_new_tokens: 8, sampling_seed: 1 },
      return_logprob: true,
    });
  });

  it("reads meta_info: output token logprobs, cached tokens, finish reason", () => {
    const parsed = sglangGenerateCodec.parseResponse(fixture("sglang-generate.json"), "s1");
    expect(parsed).toMatchObject({
      responseIds: TOOL_CALL_IDS,
      finishReason: "stop",
      cachedPromptTokens: 1_152,
    });
    expect(parsed.logprobs).toHaveLength(TOOL_CALL_IDS.length);
    const cut = sglangGenerateCodec.parseResponse(fixture("sglang-generate-length.json"), "s1");
    expect(cut).toMatchObject({
      responseIds: [785, 4_226, 374],
      finishReason: "length",
      cachedPromptTokens: 0,
    });
  });

  it("names the missing field", () => {
    expect(failureOf(() => sglangGenerateCodec.parseResponse({ text: "hi" }, "s1")).message).toBe(
      "SGLang /generate response: meta_info is missing or not an object",
    );
    const broken = fixture("sglang-generate.json");
    (broken.meta_info as { output_token_logprobs: unknown[] }).output_token_logprobs[2] = [-0.1, "x", null];
    expect(failureOf(() => sglangGenerateCodec.parseResponse(broken, "s1")).message).toMatch(
      /meta_info\.output_token_logprobs\[2\]\[1\] is not a token id/,
    );
  });
});

describe("NeMo-RL /generate codec", () => {
  it("maps prompt_ids → response_ids + logprobs", () => {
    expect(
      nemoGenerateCodec.buildRequest({ promptIds: [1], sampling: { maxTokens: 3, topP: 0.5 } }, "m"),
    ).toEqual({
      prompt_ids: [1],
      max_tokens: 3,
      temperature: 1,
      top_p: 0.5,
      top_k: -1,
    });
    const parsed = nemoGenerateCodec.parseResponse(fixture("nemo-generate.json"), "n1");
    expect(parsed).toMatchObject({
      responseIds: [785, 4_226, 374, 220, 19, 17, 13, 151_645],
      cachedPromptTokens: null,
    });
    expect(
      failureOf(() => nemoGenerateCodec.parseResponse({ response_ids: [1, 2], logprobs: [-1] }, "n1"))
        .message,
    ).toBe("NeMo-RL /generate response: logprobs has 1 entries for 2 response_ids");
  });
});

const metricsText = (name: string): string =>
  readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url), "utf8");

describe("vLLM /metrics", () => {
  it("reports each data-parallel engine and the totals; KV-cache usage as mean and max, never summed", () => {
    expect(readVllmMetrics(metricsText("vllm-metrics-dp2.txt"))).toEqual({
      prefixCacheQueries: 2_200_000,
      prefixCacheHits: 1_783_040,
      kvCacheUsage: { mean: 0.64, max: 0.82 },
      engines: [
        {
          engine: "0",
          prefixCacheQueries: 1_248_000,
          prefixCacheHits: 1_081_600,
          kvCacheUsage: 0.82,
          running: 12,
          waiting: 3,
        },
        {
          engine: "1",
          prefixCacheQueries: 952_000,
          prefixCacheHits: 701_440,
          kvCacheUsage: 0.46,
          running: 9,
          waiting: 0,
        },
      ],
    });
  });

  it("falls back to the deprecated vllm:gpu_prefix_cache_* and vllm:gpu_cache_usage_perc names", () => {
    expect(readVllmMetrics(metricsText("vllm-metrics-v0.8-deprecated.txt"))).toEqual({
      prefixCacheQueries: 40_960,
      prefixCacheHits: 30_720,
      kvCacheUsage: { mean: 0.375, max: 0.375 },
      engines: [
        {
          engine: "0",
          prefixCacheQueries: 40_960,
          prefixCacheHits: 30_720,
          kvCacheUsage: 0.375,
          running: 7,
          waiting: 1,
        },
      ],
    });
  });

  it("is null without prefix-cache counters; plain metrics are summed over label sets", () => {
    expect(readVllmMetrics("sglang:cache_hit_rate 0.5\nvllm:num_requests_running 3")).toBeNull();
    expect(readPrometheusMetric(metricsText("vllm-metrics-dp2.txt"), "vllm:num_requests_running")).toBe(21);
    expect(readPrometheusMetric("vllm:num_requests_running 3", "vllm:num_requests_waiting")).toBeNull();
  });
});
