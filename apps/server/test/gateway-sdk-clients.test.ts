// The gateway's Anthropic Messages and OpenAI Responses answers read by the official SDKs
// (`@anthropic-ai/sdk`, `openai`), as harnesses built on them read them: streaming through the
// SDKs' own stream accumulators (which refuse events out of order) and not, over real HTTP on the
// composed server against the simulator (the labelled test double for a GPU model). Each SDK must
// parse the content, tool calls, stop reason and usage, and its parsed answers, sent back as the
// next turn's history, must continue the chain as sampled.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { type GatewayTestServer, startGatewayTestServer } from "./support/gateway-test-server";

const TASK = "gw-sdk-1";
const STOP_TASK = "gw-sdk-stop";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: {
      steps: [
        {
          thinking: "Look first.",
          toolCalls: [{ name: "bash", arguments: { command: "ls", timeoutMs: 500 } }],
        },
        {
          thinking: "Read it.",
          content: "Reading.",
          toolCalls: [{ name: "bash", arguments: { command: "cat a.txt" } }],
        },
        { thinking: "Done.", content: "The file says hello." },
      ],
    },
    [STOP_TASK]: {
      steps: [{ thinking: "Count.", content: "Answer: 42\nEND of the answer." }, { content: "Bye." }],
    },
  },
};
const SYSTEM = "You are a careful engineer.";
const QUESTION = `task_id: ${TASK}\nWhat does a.txt say?`;
const TOOL_OUTPUTS = ["a.txt\nb.txt", "hello"];
const PARAMETERS = {
  type: "object" as const,
  properties: { command: { type: "string" }, timeoutMs: { type: "number" } },
  required: ["command"],
};
const DESCRIPTION = "Run a shell command";

describe("the official SDKs read the gateway's Messages and Responses answers", () => {
  let server: GatewayTestServer;
  let running: RunningServer;

  beforeAll(async () => {
    server = await startGatewayTestServer(policy);
    running = server.running;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  const openJob = () => server.openJob();

  async function expectOneCertifiedChain(jobId: string) {
    const traces = await running.gateway.buildTraces(jobId);
    expect(traces.certificate).toMatchObject({
      isCertified: true,
      callCount: 3,
      chainCount: 1,
      callsMerged: 2,
    });
  }

  it("@anthropic-ai/sdk: messages.stream().finalMessage() and messages.create() over three turns", async () => {
    const { jobId, root } = await openJob();
    const client = new Anthropic({ baseURL: root, apiKey: "unused", maxRetries: 0 });
    const tools = [{ name: "bash", description: DESCRIPTION, input_schema: PARAMETERS }];
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: QUESTION }];
    const request = () => ({ model: "claude-x", max_tokens: 512, system: SYSTEM, messages, tools });

    const stream = client.messages.stream(request());
    const thinking: string[] = [];
    stream.on("thinking", (delta) => thinking.push(delta));
    const first = await stream.finalMessage();
    expect(thinking.join("")).toBe("Look first.");
    expect(first).toMatchObject({
      type: "message",
      role: "assistant",
      stop_reason: "tool_use",
      stop_sequence: null,
      content: [
        { type: "thinking", thinking: "Look first." },
        { type: "tool_use", name: "bash", input: { command: "ls", timeoutMs: 500 } },
      ],
    });
    expect(first.id).toMatch(/^msg_/);
    expect(first.usage.input_tokens).toBeGreaterThan(0);
    expect(first.usage.output_tokens).toBeGreaterThan(0);
    const firstUse = first.content.find((block) => block.type === "tool_use");
    expect(firstUse?.id).toMatch(/^toolu_/);

    messages.push({ role: "assistant", content: first.content });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: firstUse?.id ?? "", content: TOOL_OUTPUTS[0] }],
    });
    const second = await client.messages.create(request());
    expect(second).toMatchObject({
      stop_reason: "tool_use",
      content: [
        { type: "thinking", thinking: "Read it." },
        { type: "text", text: "Reading." },
        { type: "tool_use", name: "bash", input: { command: "cat a.txt" } },
      ],
    });
    const secondUse = second.content.find((block) => block.type === "tool_use");

    messages.push({ role: "assistant", content: second.content });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: secondUse?.id ?? "", content: TOOL_OUTPUTS[1] }],
    });
    const texts: string[] = [];
    const third = await client.messages
      .stream(request())
      .on("text", (delta) => texts.push(delta))
      .finalMessage();
    expect(texts.join("")).toBe("The file says hello.");
    expect(third).toMatchObject({
      stop_reason: "end_turn",
      stop_sequence: null,
      content: [
        { type: "thinking", thinking: "Done." },
        { type: "text", text: "The file says hello." },
      ],
    });
    expect(third.usage.output_tokens).toBeGreaterThan(0);
    await expectOneCertifiedChain(jobId);
  });

  it("@anthropic-ai/sdk: a stop sequence ends the text before it, and the answer continues as sampled", async () => {
    const { jobId, root } = await openJob();
    const client = new Anthropic({ baseURL: root, apiKey: "unused", maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: `task_id: ${STOP_TASK}\nCount.` }];
    const request = () => ({ model: "claude-x", max_tokens: 512, messages, stop_sequences: ["STOP", "END"] });
    const texts: string[] = [];
    const streamed = await client.messages
      .stream(request())
      .on("text", (delta) => texts.push(delta))
      .finalMessage();
    expect(streamed).toMatchObject({
      stop_reason: "stop_sequence",
      stop_sequence: "END",
      content: [
        { type: "thinking", thinking: "Count." },
        { type: "text", text: "Answer: 42" },
      ],
    });
    expect(texts.join("")).toBe("Answer: 42");
    messages.push({ role: "assistant", content: streamed.content }, { role: "user", content: "Go on." });
    const next = await client.messages.create(request());
    expect(next).toMatchObject({
      stop_reason: "end_turn",
      stop_sequence: null,
      content: [{ type: "text", text: "Bye." }],
    });
    const traces = await running.gateway.buildTraces(jobId);
    expect(traces.certificate).toMatchObject({ isCertified: true, callCount: 2, chainCount: 1 });
  });

  it("openai: responses.stream().finalResponse() and responses.create() over three turns", async () => {
    const { jobId, root } = await openJob();
    const client = new OpenAI({ baseURL: `${root}/v1`, apiKey: "unused", maxRetries: 0 });
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: "function", name: "bash", description: DESCRIPTION, parameters: PARAMETERS, strict: false },
    ];
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: QUESTION }];
    const request = () => ({ model: "gpt-x", instructions: SYSTEM, input, tools, store: false });

    const deltas: string[] = [];
    const stream = client.responses.stream(request());
    stream.on("response.function_call_arguments.delta", (event) => deltas.push(event.delta));
    const first = await stream.finalResponse();
    expect(first).toMatchObject({ object: "response", status: "completed" });
    expect(first.output.map((item) => item.type)).toEqual(["reasoning", "function_call"]);
    const firstCall = first.output.find((item) => item.type === "function_call");
    expect(firstCall).toMatchObject({ name: "bash", status: "completed" });
    expect(JSON.parse(firstCall?.arguments ?? "")).toEqual({ command: "ls", timeoutMs: 500 });
    expect(deltas.join("")).toBe(firstCall?.arguments);
    expect(first.usage?.input_tokens).toBeGreaterThan(0);
    expect(first.usage?.output_tokens).toBeGreaterThan(0);

    input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]));
    input.push({
      type: "function_call_output",
      call_id: firstCall?.call_id ?? "",
      output: TOOL_OUTPUTS[0] ?? "",
    });
    const second = await client.responses.create(request());
    expect(second.output.map((item) => item.type)).toEqual(["reasoning", "message", "function_call"]);
    expect(second.output_text).toBe("Reading.");
    const secondCall = second.output.find((item) => item.type === "function_call");
    expect(JSON.parse(secondCall?.arguments ?? "")).toEqual({ command: "cat a.txt" });

    input.push(...(second.output as OpenAI.Responses.ResponseInputItem[]));
    input.push({
      type: "function_call_output",
      call_id: secondCall?.call_id ?? "",
      output: TOOL_OUTPUTS[1] ?? "",
    });
    const texts: string[] = [];
    const third = await client.responses
      .stream(request())
      .on("response.output_text.delta", (event) => texts.push(event.delta))
      .finalResponse();
    expect(texts.join("")).toBe("The file says hello.");
    expect(third.status).toBe("completed");
    // The stream's final response is the snapshot (`output_text` is a convenience of `create`).
    expect(third.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
    expect(third.output[1]).toMatchObject({
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "The file says hello." }],
    });
    expect(third.usage?.total_tokens).toBe(
      (third.usage?.input_tokens ?? 0) + (third.usage?.output_tokens ?? 0),
    );
    await expectOneCertifiedChain(jobId);
  });
});
