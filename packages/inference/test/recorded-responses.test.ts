// The HTTP backends and the routed pool against a real local HTTP server answering with response
// bodies recorded from (or written to the documented format of) real inference server releases.
import { readFileSync } from "node:fs";
import { StickyRouter } from "@raas/engine";
import { afterEach, describe, expect, it } from "vitest";
import { HttpInferenceBackend } from "../src/backends/http-inference-backend";
import type { BackendKind } from "../src/backends/inference-backend.types";
import { JsonHttpClient } from "../src/http/json-http-client";
import { RoutedInferencePool } from "../src/pool/routed-inference-pool";
import { type RecordedBackend, startRecordedBackend } from "./support/recorded-backend";

const fixture = (name: string): string => readFileSync(new URL(`fixtures/${name}`, import.meta.url), "utf8");
const json = (name: string): unknown => JSON.parse(fixture(name));
const QWEN3_STOP_IDS = [151_645, 151_643];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function recorded(answers: Parameters<typeof startRecordedBackend>[0]): Promise<RecordedBackend> {
  const server = await startRecordedBackend(answers);
  cleanups.push(() => server.close());
  return server;
}

function backendOf(kind: BackendKind, server: RecordedBackend): HttpInferenceBackend {
  const client = new JsonHttpClient();
  cleanups.push(() => client.close());
  return new HttpInferenceBackend({
    id: `${kind}-0`,
    kind,
    baseUrl: server.url,
    model: "Qwen/Qwen3-8B",
    client,
  });
}

const turn = (maxTokens: number) => ({
  promptIds: [151_644, 872, 198, 3_838, 374, 220, 19, 488, 220, 18, 30, 151_645, 198, 151_644, 77_091, 198],
  sampling: { maxTokens, seed: 3, stopTokenIds: QWEN3_STOP_IDS },
});

describe("SGLang /generate as releases answer", () => {
  it("takes the response from output_token_logprobs when output_ids begins with trailing prompt tokens", async () => {
    const server = await recorded({ "POST /generate": { body: json("sglang-generate-prompt-echo.json") } });
    const generation = await backendOf("sglang", server).generate(turn(64));
    expect(generation).toEqual({
      responseIds: [785, 4_226, 374, 220, 19, 17, 13, 151_645],
      logprobs: [-0.0904, -0.2908, -0.3195, -0.1862, -0.2739, -0.0314, -0.0298, -0.103],
      finishReason: "stop",
      cachedPromptTokens: 1_200,
    });
    expect(server.requests[0]).toMatchObject({ input_ids: turn(64).promptIds, return_logprob: true });
  });

  it("falls back to the last completion_tokens ids of output_ids when the entries carry no ids", async () => {
    const body = json("sglang-generate-prompt-echo.json") as {
      meta_info: { output_token_logprobs: unknown[][] };
    };
    body.meta_info.output_token_logprobs = body.meta_info.output_token_logprobs.map(([logprob]) => [logprob]);
    const server = await recorded({ "POST /generate": { body } });
    const generation = await backendOf("sglang", server).generate(turn(64));
    expect(generation.responseIds).toEqual([785, 4_226, 374, 220, 19, 17, 13, 151_645]);
    expect(generation.logprobs).toHaveLength(8);
  });

  it("still rejects output_ids that contradict the logprob entries, naming the field", async () => {
    const body = json("sglang-generate-prompt-echo.json") as { output_ids: number[] };
    body.output_ids[body.output_ids.length - 2] = 99;
    const server = await recorded({ "POST /generate": { body } });
    await expect(backendOf("sglang", server).generate(turn(64))).rejects.toMatchObject({
      failure: {
        kind: "inference",
        inference: { reason: "bad-response" },
        message:
          "SGLang /generate response: output_ids does not end with the token ids of meta_info.output_token_logprobs",
      },
    });
  });
});

describe("NeMo-RL /generate finish reason", () => {
  it("is stop when the last id is the end-of-turn token, length when max_tokens was reached", async () => {
    const server = await recorded({ "POST /generate": { body: json("nemo-generate.json") } });
    const backend = backendOf("nemo-rl", server);
    expect(await backend.generate(turn(64))).toMatchObject({
      finishReason: "stop",
      cachedPromptTokens: null,
    });
    server.answer("POST /generate", { body: json("nemo-generate-length.json") });
    expect(await backend.generate(turn(4))).toMatchObject({ finishReason: "length" });
    expect(server.requests.at(-1)).toMatchObject({ max_tokens: 4, stop_token_ids: QWEN3_STOP_IDS });
  });
});

describe("vLLM /metrics through the backend", () => {
  it("reads per-engine figures of a data-parallel server and the deprecated names of an old one", async () => {
    const server = await recorded({ "GET /metrics": { body: fixture("vllm-metrics-dp2.txt") } });
    const backend = backendOf("vllm", server);
    const counters = await backend.readReportedCounters(2_000);
    expect(counters).toMatchObject({
      prefixCacheQueries: 2_200_000,
      kvCacheUsage: { mean: 0.64, max: 0.82 },
    });
    expect(counters?.engines?.map((e) => e.engine)).toEqual(["0", "1"]);
    server.answer("GET /metrics", { body: fixture("vllm-metrics-v0.8-deprecated.txt") });
    expect(await backend.readReportedCounters(2_000)).toMatchObject({
      prefixCacheQueries: 40_960,
      prefixCacheHits: 30_720,
    });
  });
});

describe("unknown cached-token counts through the routed pool", () => {
  it("stay null in the result and out of the hit rate, counted as unknown", async () => {
    const nemo = await recorded({
      "POST /generate": { body: json("nemo-generate.json") },
      "GET /health": { body: "" },
      "GET /metrics": { body: fixture("vllm-metrics-dp2.txt") },
    });
    const sglang = await recorded({ "POST /generate": { body: json("sglang-generate-prompt-echo.json") } });
    const pool = new RoutedInferencePool({ router: new StickyRouter() });
    cleanups.push(() => pool.close());
    pool.registerBackend({ id: "nemo", kind: "nemo-rl", baseUrl: nemo.url, modelName: "m" });
    const unknown = await pool.generate({ jobId: "j1", ...turn(64) });
    expect(unknown).toMatchObject({ backendId: "nemo", cachedPromptTokens: null, finishReason: "stop" });
    pool.registerBackend({ id: "sglang", kind: "sglang", baseUrl: sglang.url, modelName: "m" });
    const known = await pool.generate({ jobId: "j2", ...turn(64) });
    expect(known).toMatchObject({ backendId: "sglang", cachedPromptTokens: 1_200 });
    await pool.checkHealth(2_000);
    const [nemoView, sglangView] = pool.listBackends();
    expect(nemoView?.stats).toMatchObject({
      requests: 1,
      promptTokens: 16,
      cachedPromptTokens: 0,
      prefixCacheHitRate: null,
      requestsWithUnknownCachedTokens: 1,
      reported: { prefixCacheQueries: 2_200_000, kvCacheUsage: { mean: 0.64, max: 0.82 } },
    });
    // 1_200 cached of a 16-token prompt is capped at the prompt: the rate stays a fraction.
    expect(sglangView?.stats).toMatchObject({ prefixCacheHitRate: 1, requestsWithUnknownCachedTokens: 0 });
  });
});
