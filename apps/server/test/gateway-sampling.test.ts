// The trainer owns the sampling distribution: whatever sampling fields a harness sends through the
// job's gateway (temperature 0, top_p, seed, logit_bias, penalties, …), the backend — the
// simulator behind a recording fake backend, which keeps every request body it forwards — is sent
// the job's settings, the stored call records the parameters used and what was overridden, and a
// job in `reject` mode refuses such a request with a 400 naming the fields.
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";
import { postJson } from "./support/http-calls";
import { type RecordingBackend, startRecordingBackend } from "./support/recording-backend";

const messages = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "task_id: sampling-1\nSay hi." },
];
/** What a harness that picks its own distribution sends besides its messages. */
const HARNESS_SAMPLING = {
  temperature: 0,
  top_p: 0.1,
  top_k: 5,
  min_p: 0.3,
  seed: 1,
  presence_penalty: 1.5,
  frequency_penalty: 0.5,
  repetition_penalty: 1.2,
  logit_bias: { "151643": 100 },
  best_of: 4,
};
const JOB_SETTINGS = { temperature: 0.6, topP: 0.95, seed: 17 };

describe("the gateway samples with the job's settings, never a harness's", () => {
  let simulator: RunningSimulator;
  let backend: RecordingBackend;
  let running: RunningServer;

  beforeAll(async () => {
    simulator = await startSimulator({ latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
    backend = await startRecordingBackend(simulator.url);
    running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      inference: { backends: [{ kind: "vllm" as const, baseUrl: backend.url, modelName: null }] },
    });
  }, 60_000);

  afterAll(async () => {
    await running?.close({ graceMs: 0 });
    await backend?.close();
    await simulator?.close();
  });

  /** A running job (the sleep handler) and its gateway, opened as the harness handler opens it. */
  async function openJob(sampling?: Parameters<RunningServer["gateway"]["openSession"]>[1]) {
    const { job } = await running.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const session = running.gateway.openSession(job.id, sampling);
    return { jobId: job.id, url: `${running.url}/gateway/${session.token}/v1/chat/completions` };
  }

  it("sends the backend the job's settings and records them with what the harness asked for", async () => {
    const { jobId, url } = await openJob({ settings: JOB_SETTINGS, mode: "override" });
    const before = backend.requests.length;
    const answer = await postJson(url, { model: "any", messages, max_tokens: 32, ...HARNESS_SAMPLING });
    expect(answer.status).toBe(200);
    const streamed = await postJson(url, {
      messages: [...messages, answer.body.choices[0].message, { role: "user", content: "Again." }],
      max_tokens: 16,
      stream: true,
      temperature: 0,
      seed: 2,
    });
    expect(streamed.status).toBe(200);

    const received = backend.requests.slice(before);
    expect(received).toHaveLength(2);
    for (const body of received) {
      // top_k and min_p are the job's (none set: no cut, sent explicitly so no server default applies).
      expect(body).toMatchObject({ temperature: 0.6, top_p: 0.95, seed: 17, top_k: -1, min_p: 0 });
      for (const field of ["presence_penalty", "frequency_penalty", "repetition_penalty"]) {
        expect(body).not.toHaveProperty(field);
      }
      expect(body).not.toHaveProperty("logit_bias");
      expect(body).not.toHaveProperty("best_of");
    }
    expect(received.map((body) => body.max_tokens)).toEqual([32, 16]);

    const calls = await running.gateway.listCalls(jobId);
    expect(calls.map((call) => call.sampling)).toEqual([
      { temperature: 0.6, topP: 0.95, topK: -1, seed: 17, maxTokens: 32 },
      { temperature: 0.6, topP: 0.95, topK: -1, seed: 17, maxTokens: 16 },
    ]);
    expect(calls[0]?.overriddenSampling).toEqual(HARNESS_SAMPLING);
    expect(calls[1]?.overriddenSampling).toEqual({ temperature: 0, seed: 2 });

    // n > 1 cannot change what is sampled either: refused before anything reaches the backend.
    const twoChoices = await postJson(url, { messages, n: 2 });
    expect(twoChoices.status).toBe(400);
    expect(twoChoices.body.error.message).toMatch(/n = 1/);
    expect(backend.requests.length).toBe(before + 2);
  });

  it("sends the backend defaults, not a harness's, when the session was opened without settings", async () => {
    const { jobId, url } = await openJob();
    const before = backend.requests.length;
    const answer = await postJson(url, { messages, max_tokens: 8, temperature: 0, top_p: 0.5, seed: 3 });
    expect(answer.status).toBe(200);
    const [body] = backend.requests.slice(before);
    expect(body).toMatchObject({ temperature: 1, top_p: 1, top_k: -1, min_p: 0 });
    expect(body).not.toHaveProperty("seed");
    const [call] = await running.gateway.listCalls(jobId);
    expect(call?.sampling).toEqual({ temperature: 1, topP: 1, topK: -1, seed: null, maxTokens: 8 });
    expect(call?.overriddenSampling).toEqual({ temperature: 0, top_p: 0.5, seed: 3 });
  });

  it("refuses, in reject mode, a request whose sampling differs from the job's with a 400 naming the fields", async () => {
    const { jobId, url } = await openJob({ settings: JOB_SETTINGS, mode: "reject" });
    const before = backend.requests.length;
    const refused = await postJson(url, {
      messages,
      max_tokens: 8,
      temperature: 0,
      logit_bias: { "9": -100 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("VALIDATION_FAILED");
    expect(refused.body.error.message).toMatch(/temperature 0 \(the job's: 0\.6\)/);
    expect(refused.body.error.message).toMatch(/logit_bias/);
    expect(refused.body.error.details).toEqual({ fields: ["temperature", "logit_bias"] });
    const streamedRefusal = await postJson(url, { messages, stream: true, seed: 5 });
    expect(streamedRefusal.status).toBe(400);
    expect(streamedRefusal.body.error.message).toMatch(/seed 5 \(the job's: 17\)/);
    expect(backend.requests.length).toBe(before);
    expect(await running.gateway.listCalls(jobId)).toEqual([]);

    // Repeating the job's own values, or sending none, is no conflict.
    const accepted = await postJson(url, {
      messages,
      max_tokens: 8,
      temperature: 0.6,
      seed: 17,
      logit_bias: {},
    });
    expect(accepted.status).toBe(200);
    expect(backend.requests.slice(before)).toEqual([
      expect.objectContaining({ temperature: 0.6, top_p: 0.95, seed: 17 }),
    ]);
    const [call] = await running.gateway.listCalls(jobId);
    expect(call?.sampling).toMatchObject({ temperature: 0.6, seed: 17 });
    expect(call).not.toHaveProperty("overriddenSampling");
  });
});
