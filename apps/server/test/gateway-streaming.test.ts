// The gateway's true streaming and its `tool_choice` enforcement, over real HTTP on the composed
// server against an in-process simulator (the labelled test double for a GPU model) that decodes
// one token per streamed chunk.
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";
import { postJson } from "./support/http-calls";

const THINKING = "I will look at the repository layout first, then read the file that matters most here.";
const policy = {
  kind: "scripted" as const,
  tasks: {
    "gw-stream": {
      steps: [{ thinking: THINKING, content: "The answer is forty-two, as the file says." }],
    },
    "gw-tool": {
      steps: [{ thinking: "Look.", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] }],
    },
  },
};
const tools = [
  {
    type: "function",
    function: { name: "bash", description: "Run a shell command", parameters: { type: "object" } },
  },
  {
    type: "function",
    function: { name: "edit", description: "Edit a file", parameters: { type: "object" } },
  },
];
const ask = (task: string) => [
  { role: "system", content: "You are a careful engineer." },
  { role: "user", content: `task_id: ${task}\nGo.` },
];

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

describe("gateway streaming and tool_choice", () => {
  let running: RunningServer;
  let simulator: RunningSimulator;

  beforeAll(async () => {
    // 15 ms per token, one token per chunk: the answer takes well over a second to sample.
    simulator = await startSimulator({
      policy,
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 15 },
      streamIntervalMs: 15,
    });
    running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      inference: { backends: [{ kind: "vllm" as const, baseUrl: simulator.url, modelName: null }] },
    });
  }, 60_000);

  afterAll(async () => {
    await running?.close({ graceMs: 0 });
    await simulator?.close();
  });

  async function openJob() {
    const { job } = await running.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const session = running.gateway.openSession(job.id);
    return { jobId: job.id, base: `${running.url}/gateway/${session.token}/v1` };
  }

  it("sends reasoning and content chunks while the model still samples, adding up to the recorded answer", async () => {
    const { jobId, base } = await openJob();
    const response = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        messages: ask("gw-stream"),
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    const events: string[] = [];
    let recordedAtFirstDelta: number | null = null;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let end = buffered.indexOf("\n\n");
      while (end !== -1) {
        events.push(buffered.slice("data: ".length, end));
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf("\n\n");
      }
      const hasDelta = events.some((event) => event.includes('"reasoning_content"'));
      if (hasDelta && recordedAtFirstDelta === null) {
        // The call is recorded only once its generation ended: none yet means the first tokens
        // reached this client while the model was still sampling.
        recordedAtFirstDelta = (await running.gateway.listCalls(jobId)).length;
      }
    }
    expect(recordedAtFirstDelta).toBe(0);
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice: Json) => choice.delta));
    const reasoningDeltas = deltas.filter((delta) => delta.reasoning_content);
    expect(reasoningDeltas.length).toBeGreaterThan(5);
    const [record] = await running.gateway.listCalls(jobId);
    const answer = record?.answer as Json;
    expect(reasoningDeltas.map((delta) => delta.reasoning_content).join("")).toBe(answer.reasoning_content);
    expect(answer.reasoning_content).toBe(THINKING);
    expect(deltas.map((delta) => delta.content ?? "").join("")).toBe(
      "The answer is forty-two, as the file says.",
    );
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("stop");
    expect(chunks.at(-1).usage.completion_tokens).toBe(record?.responseIds.length);
  });

  it("refuses tool_choice it cannot honour at request time (400)", async () => {
    const { base } = await openJob();
    const noTools = await postJson(`${base}/chat/completions`, {
      messages: ask("gw-tool"),
      tool_choice: "required",
    });
    expect(noTools.status).toBe(400);
    expect(noTools.body.error.message).toMatch(/needs at least one tool/);
    const unknownTool = await postJson(`${base}/chat/completions`, {
      messages: ask("gw-tool"),
      tools,
      tool_choice: { type: "function", function: { name: "deploy" } },
    });
    expect(unknownTool.status).toBe(400);
    expect(unknownTool.body.error.message).toMatch(
      /"deploy", which is not among the request's tools \(bash, edit\)/,
    );
  });

  it("answers as sampled when the model ignores tool_choice, and records the violation for the certificate", async () => {
    const { jobId, base } = await openJob();
    const honoured = await postJson(`${base}/chat/completions`, {
      messages: ask("gw-tool"),
      tools,
      tool_choice: { type: "function", function: { name: "bash" } },
    });
    expect(honoured.status).toBe(200);
    expect(honoured.body.choices[0].finish_reason).toBe("tool_calls");
    const ignoredRequired = await postJson(`${base}/chat/completions`, {
      messages: ask("gw-stream"),
      tools,
      tool_choice: "required",
    });
    expect(ignoredRequired.status).toBe(200);
    expect(ignoredRequired.body.choices[0]).toMatchObject({
      finish_reason: "stop",
      message: { content: expect.any(String) },
    });
    const otherTool = await postJson(`${base}/chat/completions`, {
      messages: ask("gw-tool"),
      tools,
      tool_choice: { type: "function", function: { name: "edit" } },
    });
    expect(otherTool.body.choices[0].message.tool_calls[0].function.name).toBe("bash");

    const calls = await running.gateway.listCalls(jobId);
    expect(calls.map((call) => call.toolChoiceViolation?.required ?? null)).toEqual([null, "any", "edit"]);
    const { certificate } = await running.gateway.buildTraces(jobId);
    expect(certificate.toolChoiceViolations).toEqual([
      expect.objectContaining({ callId: calls[1]?.id, callSeq: 1, required: "any", calledTools: [] }),
      expect.objectContaining({ callId: calls[2]?.id, callSeq: 2, required: "edit", calledTools: ["bash"] }),
    ]);
    // The same over REST, as the trajectory page reads it.
    const rest = (await (await fetch(`${running.url}/api/v1/jobs/${jobId}/gateway-traces`)).json()) as Json;
    expect(rest.certificate.toolChoiceViolations).toHaveLength(2);
  });
});
