// Anthropic Messages and OpenAI Responses on the per-job gateway over real HTTP on the composed
// server, against the in-process simulator (the labelled test double for a GPU model): tool calls
// and their results over three turns, streaming and not, recorded as the same calls as chat
// completions (one certified chain), errors in each shape's envelope, and the same conversation
// through all three shapes giving identical token streams.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { readAnthropicStream, readResponsesStream } from "./support/gateway-sse";
import { type GatewayTestServer, startGatewayTestServer } from "./support/gateway-test-server";
import { postJson } from "./support/http-calls";

const TASK = "gw-formats-1";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: {
      steps: [
        { thinking: "Look first.", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
        {
          thinking: "Read it.",
          content: "Reading.",
          toolCalls: [{ name: "bash", arguments: { command: "cat a.txt" } }],
        },
        { thinking: "Done.", content: "The file says hello." },
      ],
    },
  },
};
const SYSTEM = "You are a careful engineer.";
const QUESTION = `task_id: ${TASK}\nWhat does a.txt say?`;
const TOOL_OUTPUTS = ["a.txt\nb.txt", "hello"];
const PARAMETERS = { type: "object", properties: { command: { type: "string" } }, required: ["command"] };
const DESCRIPTION = "Run a shell command";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

describe("Anthropic Messages and OpenAI Responses on the gateway", () => {
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

  /** Three Anthropic turns: each answer appended as sent back, its tool_use blocks answered. */
  async function anthropicConversation(root: string, stream: boolean) {
    const tools = [{ name: "bash", description: DESCRIPTION, input_schema: PARAMETERS }];
    const messages: Json[] = [{ role: "user", content: [{ type: "text", text: QUESTION }] }];
    const answers: Json[] = [];
    for (let turn = 0; turn < 3; turn += 1) {
      const body = { model: "claude-x", max_tokens: 512, system: SYSTEM, messages, tools, stream };
      const { status, body: json, text } = await postJson(`${root}/v1/messages?beta=true`, body);
      expect(status, text).toBe(200);
      const message = stream ? readAnthropicStream(text) : json;
      answers.push(message);
      messages.push({ role: "assistant", content: message.content });
      const uses = message.content.filter((block: Json) => block.type === "tool_use");
      if (uses.length === 0) break;
      messages.push({
        role: "user",
        content: uses.map((use: Json) => ({
          type: "tool_result",
          tool_use_id: use.id,
          content: [{ type: "text", text: TOOL_OUTPUTS[turn] }],
        })),
      });
    }
    return answers;
  }

  it("answers Messages with thinking, text and tool_use blocks and records one certified chain", async () => {
    const { jobId, root } = await openJob();
    const [first, second, third] = await anthropicConversation(root, false);
    expect(first).toMatchObject({
      type: "message",
      role: "assistant",
      stop_reason: "tool_use",
      stop_sequence: null,
      content: [
        { type: "thinking", thinking: "Look first." },
        { type: "tool_use", name: "bash", input: { command: "ls" } },
      ],
    });
    expect(first.id).toMatch(/^msg_/);
    expect(first.content[1].id).toMatch(/^toolu_/);
    expect(first.usage.input_tokens).toBeGreaterThan(0);
    expect(second.content.map((block: Json) => block.type)).toEqual(["thinking", "text", "tool_use"]);
    expect(third).toMatchObject({
      stop_reason: "end_turn",
      content: [
        { type: "thinking", thinking: "Done." },
        { type: "text", text: "The file says hello." },
      ],
    });
    await expectOneCertifiedChain(jobId);
  });

  it("streams Messages as Anthropic's events and records one certified chain", async () => {
    const { jobId, root } = await openJob();
    const body = {
      max_tokens: 512,
      system: SYSTEM,
      messages: [{ role: "user", content: QUESTION }],
      stream: true,
    };
    const { text } = await postJson(`${root}/v1/messages`, {
      ...body,
      tools: [{ name: "bash", description: DESCRIPTION, input_schema: PARAMETERS }],
    });
    const names = text
      .split("\n\n")
      .filter((block) => block.startsWith("event: "))
      .map((block) => block.split("\n")[0]?.slice("event: ".length));
    expect(names[0]).toBe("message_start");
    expect(names.slice(-2)).toEqual(["message_delta", "message_stop"]);
    expect(text).toContain('"type":"thinking_delta"');
    expect(text).toContain('"type":"input_json_delta"');
    expect(readAnthropicStream(text)).toMatchObject({
      stop_reason: "tool_use",
      content: [
        { type: "thinking", thinking: "Look first." },
        { type: "tool_use", input: { command: "ls" } },
      ],
    });

    expect((await running.gateway.listCalls(jobId)).map((call) => call.finishReason)).toHaveLength(1);

    const conversation = await openJob();
    const answers = await anthropicConversation(conversation.root, true);
    expect(answers.map((answer) => answer.stop_reason)).toEqual(["tool_use", "tool_use", "end_turn"]);
    expect(answers[2].content.at(-1)).toEqual({ type: "text", text: "The file says hello." });
    await expectOneCertifiedChain(conversation.jobId);
  });

  it("answers HEAD probes and count_tokens, and refuses bad requests in Anthropic's shape", async () => {
    const { root } = await openJob();
    for (const path of ["", "/", "/v1"]) {
      const probe = await fetch(`${root}${path}`, { method: "HEAD" });
      expect(probe.status, path).toBe(200);
    }
    expect((await fetch(`${running.url}/gateway/nope/v1`, { method: "HEAD" })).status).toBe(401);

    const request = { system: SYSTEM, messages: [{ role: "user", content: QUESTION }] };
    const counted = await postJson(`${root}/v1/messages/count_tokens`, request);
    expect(counted.status).toBe(200);
    const answered = await postJson(`${root}/v1/messages`, { ...request, max_tokens: 64 });
    expect(counted.body.input_tokens).toBe(answered.body.usage.input_tokens);

    const noLimit = await postJson(`${root}/v1/messages`, request);
    expect(noLimit.status).toBe(400);
    expect(noLimit.body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(noLimit.body.error.message).toContain("max_tokens");
    const image = await postJson(`${root}/v1/messages`, {
      max_tokens: 64,
      messages: [{ role: "user", content: [{ type: "image", source: { type: "base64", data: "" } }] }],
    });
    expect(image.status).toBe(400);
    expect(image.body.error.message).toContain("image blocks");
    const stranger = await postJson(`${running.url}/gateway/nope/v1/messages`, {
      ...request,
      max_tokens: 64,
    });
    expect(stranger.status).toBe(401);
    expect(stranger.body).toMatchObject({ type: "error", error: { type: "authentication_error" } });
  });

  const responsesTools = [
    { type: "function", name: "bash", description: DESCRIPTION, parameters: PARAMETERS },
  ];

  it("answers Responses with reasoning, message and function_call items and records one certified chain", async () => {
    const { jobId, root } = await openJob();
    const input: Json[] = [{ role: "user", content: [{ type: "input_text", text: QUESTION }] }];
    const answers: Json[] = [];
    for (let turn = 0; turn < 3; turn += 1) {
      const body = { model: "gpt-x", instructions: SYSTEM, input, tools: responsesTools, store: false };
      const { status, body: response, text } = await postJson(`${root}/v1/responses`, body);
      expect(status, text).toBe(200);
      answers.push(response);
      input.push(...response.output);
      for (const item of response.output.filter((item: Json) => item.type === "function_call")) {
        input.push({ type: "function_call_output", call_id: item.call_id, output: TOOL_OUTPUTS[turn] });
      }
    }
    const [first, second, third] = answers;
    expect(first).toMatchObject({ object: "response", status: "completed", instructions: SYSTEM });
    expect(first.output).toMatchObject([
      { type: "reasoning", content: [{ type: "reasoning_text", text: "Look first." }] },
      { type: "function_call", name: "bash", arguments: '{"command":"ls"}' },
    ]);
    expect(second.output.map((item: Json) => item.type)).toEqual(["reasoning", "message", "function_call"]);
    expect(third.output.at(-1)).toMatchObject({
      type: "message",
      content: [{ type: "output_text", text: "The file says hello." }],
    });
    expect(third.usage.input_tokens).toBeGreaterThan(first.usage.input_tokens);
    await expectOneCertifiedChain(jobId);
  });

  it("streams Responses events, continues by previous_response_id and records one certified chain", async () => {
    const { jobId, root } = await openJob();
    let input: Json[] = [{ role: "user", content: QUESTION }];
    let previous: string | null = null;
    const answers: Json[] = [];
    for (let turn = 0; turn < 3; turn += 1) {
      const body = {
        instructions: SYSTEM,
        input,
        tools: responsesTools,
        stream: true,
        previous_response_id: previous,
      };
      const { status, text } = await postJson(`${root}/v1/responses`, body);
      expect(status, text).toBe(200);
      const { types, response } = readResponsesStream(text);
      expect(types[0]).toBe("response.created");
      expect(types.at(-1)).toBe("response.completed");
      answers.push(response);
      previous = response.id;
      input = response.output
        .filter((item: Json) => item.type === "function_call")
        .map((item: Json) => ({
          type: "function_call_output",
          call_id: item.call_id,
          output: TOOL_OUTPUTS[turn],
        }));
      if (turn === 0) {
        expect(types).toContain("response.reasoning_text.delta");
        expect(types).toContain("response.function_call_arguments.delta");
        expect(types).toContain("response.output_item.done");
      }
    }
    expect(answers[2].output.at(-1).content[0].text).toBe("The file says hello.");
    await expectOneCertifiedChain(jobId);

    const unknown = await postJson(`${root}/v1/responses`, {
      input: "hi",
      previous_response_id: "resp_nope",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("previous_response_id");
    // Codex always offers web_search: the model is offered the function tools only.
    const hosted = await postJson(`${root}/v1/responses`, {
      input: "hi",
      tools: [...responsesTools, { type: "web_search", external_web_access: true }],
    });
    expect(hosted.status).toBe(200);
    const recorded = await running.gateway.listCalls(jobId);
    expect(recorded.at(-1)?.tools).toEqual([
      { type: "function", function: { name: "bash", description: DESCRIPTION, parameters: PARAMETERS } },
    ]);
  });

  it("applies the job's sampling rules to both shapes: overridden and recorded, or refused", async () => {
    const { job } = await running.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const override = running.gateway.openSession(job.id, {
      settings: { temperature: 0.6 },
      mode: "override",
    });
    const root = `${running.url}/gateway/${override.token}`;
    const messages = [{ role: "user", content: QUESTION }];
    const message = await postJson(`${root}/v1/messages`, {
      max_tokens: 64,
      messages,
      temperature: 0.2,
      top_k: 5,
    });
    expect(message.status).toBe(200);
    const response = await postJson(`${root}/v1/responses`, {
      input: QUESTION,
      temperature: 0.6,
      top_p: 0.5,
    });
    expect(response.status).toBe(200);
    const calls = await running.gateway.listCalls(job.id);
    expect(calls.map((call) => call.overriddenSampling)).toEqual([
      { temperature: 0.2, top_k: 5 },
      { top_p: 0.5 },
    ]);
    expect(calls.every((call) => call.sampling?.temperature === 0.6)).toBe(true);

    const strict = await running.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const reject = running.gateway.openSession(strict.job.id, {
      settings: { temperature: 0.6 },
      mode: "reject",
    });
    const strictRoot = `${running.url}/gateway/${reject.token}`;
    const refused = await postJson(`${strictRoot}/v1/messages`, {
      max_tokens: 64,
      messages,
      temperature: 0.2,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(refused.body.error.message).toContain("temperature");
    const refusedResponse = await postJson(`${strictRoot}/v1/responses`, { input: QUESTION, top_p: 0.5 });
    expect(refusedResponse.status).toBe(400);
    expect(refusedResponse.body.error.message).toContain("top_p");
    expect(await running.gateway.listCalls(strict.job.id)).toEqual([]);
  });

  it("gives identical token streams for one conversation through chat completions, Messages and Responses", async () => {
    const chat = await openJob();
    const chatTools = [
      { type: "function", function: { name: "bash", description: DESCRIPTION, parameters: PARAMETERS } },
    ];
    const messages: Json[] = [
      { role: "system", content: SYSTEM },
      { role: "user", content: QUESTION },
    ];
    for (let turn = 0; turn < 3; turn += 1) {
      const { body } = await postJson(`${chat.root}/v1/chat/completions`, { messages, tools: chatTools });
      const message = body.choices[0].message;
      messages.push(message);
      for (const call of message.tool_calls ?? [])
        messages.push({ role: "tool", tool_call_id: call.id, content: TOOL_OUTPUTS[turn] });
    }
    const anthropic = await openJob();
    await anthropicConversation(anthropic.root, true);
    const responses = await openJob();
    const input: Json[] = [{ role: "user", content: QUESTION }];
    for (let turn = 0; turn < 3; turn += 1) {
      const { body } = await postJson(`${responses.root}/v1/responses`, {
        instructions: SYSTEM,
        input,
        tools: responsesTools,
      });
      input.push(...body.output);
      for (const item of body.output.filter((item: Json) => item.type === "function_call"))
        input.push({ type: "function_call_output", call_id: item.call_id, output: TOOL_OUTPUTS[turn] });
    }
    const streams = await Promise.all(
      [chat, anthropic, responses].map(async ({ jobId }) =>
        (await running.gateway.listCalls(jobId)).map((call) => ({
          promptIds: call.promptIds,
          responseIds: call.responseIds,
        })),
      ),
    );
    expect(streams[0]).toHaveLength(3);
    expect(streams[1]).toEqual(streams[0]);
    expect(streams[2]).toEqual(streams[0]);
  });
});
