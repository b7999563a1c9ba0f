// A job's gateway calls listed in the API shape each harness used (`GET /api/v1/jobs/{id}/gateway-calls`),
// read back from PostgreSQL after a restart: an Anthropic Messages conversation shows what was sent
// after the last assistant turn and Anthropic's `message` as answered, a Responses call its items
// and `response` (without the echoed instructions and tools), a chat call its messages; each with
// the harness's User-Agent. Against an in-process simulator (the labelled test double for a GPU model).
import type { TGatewayCallPage } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import {
  type PostgresGatewayServers,
  preparePostgresGatewayServers,
} from "./support/postgres-gateway-server";

const TASK = "gw-view-1";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: {
      steps: [
        { thinking: "Look first.", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
        { thinking: "Done.", content: "Two files." },
      ],
    },
  },
};
const SYSTEM = "You are a careful engineer.";
const QUESTION = `task_id: ${TASK}\nWhat is here?`;
const PARAMETERS = { type: "object", properties: { command: { type: "string" } }, required: ["command"] };

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

async function post(url: string, body: unknown, userAgent: string): Promise<Json> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": userAgent },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
}

describe("a job's gateway calls in the harness's own API shape", () => {
  let servers: PostgresGatewayServers;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    servers = await preparePostgresGatewayServers("gwview", policy);
  }, 60_000);

  afterAll(async () => {
    await server?.close({ graceMs: 0 });
    await servers?.dispose();
  });

  const openJob = async (running: RunningServer) => {
    const { job } = await running.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    return { jobId: job.id, root: `${running.url}/gateway/${running.gateway.openSession(job.id).token}` };
  };
  const page = async (jobId: string, query = ""): Promise<TGatewayCallPage> => {
    const response = await fetch(`${server!.url}/api/v1/jobs/${jobId}/gateway-calls${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as TGatewayCallPage;
  };

  it("lists Messages, Responses and chat calls as sent and answered, after a restart", async () => {
    server = await servers.start();
    const messagesJob = await openJob(server);
    const tools = [{ name: "bash", description: "Run a shell command", input_schema: PARAMETERS }];
    const opening = { role: "user", content: [{ type: "text", text: QUESTION }] };
    const claude = "claude-cli/2.1.197 (external, sdk-cli)";
    const url = `${messagesJob.root}/v1/messages?beta=true`;
    const first = await post(url, { max_tokens: 256, system: SYSTEM, tools, messages: [opening] }, claude);
    const use = first.content.find((block: Json) => block.type === "tool_use");
    const toolResult = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: use.id, content: "a.txt\nb.txt" }],
    };
    const history = [opening, { role: "assistant", content: first.content }, toolResult];
    const second = await post(url, { max_tokens: 256, system: SYSTEM, tools, messages: history }, claude);

    const responsesJob = await openJob(server);
    const codex = "codex_exec/0.171.0 (Debian 12; x86_64)";
    const responsesTools = [{ type: "function", name: "bash", parameters: PARAMETERS }];
    const response = await post(
      `${responsesJob.root}/v1/responses`,
      { instructions: SYSTEM, tools: responsesTools, input: QUESTION, max_output_tokens: 256 },
      codex,
    );

    const chatJob = await openJob(server);
    const chatMessages = [
      { role: "system", content: SYSTEM },
      { role: "user", content: QUESTION },
    ];
    const chat = await post(
      `${chatJob.root}/v1/chat/completions`,
      { messages: chatMessages },
      "QwenCode/0.24.4",
    );

    await server.close({ graceMs: 0 });
    server = await servers.start();

    const messages = await page(messagesJob.jobId);
    expect(messages).toMatchObject({ total: 2, nextAfterSeq: null });
    expect(messages.calls.map((call) => [call.seq, call.api, call.userAgent])).toEqual([
      [0, "anthropic.messages", claude],
      [1, "anthropic.messages", claude],
    ]);
    // The first call as sent (no system prompt or tools: the record has them), answered as Anthropic's message.
    expect(messages.calls[0]!.sent).toEqual({ max_tokens: 256, messages: [opening] });
    expect(messages.calls[0]!.answered).toEqual(first);
    // The second call: only what came after the assistant turn it sent back.
    expect(messages.calls[1]!.sent).toEqual({ max_tokens: 256, messages: [toolResult] });
    expect(messages.calls[1]!.answered).toEqual(second);
    expect(messages.calls[1]!.promptTokens).toBeGreaterThan(messages.calls[0]!.promptTokens);
    expect(messages.calls[1]!.responseTokens).toBeGreaterThan(0);

    const responses = await page(responsesJob.jobId);
    expect(responses.calls).toHaveLength(1);
    expect(responses.calls[0]).toMatchObject({ api: "openai.responses", userAgent: codex });
    expect(responses.calls[0]!.sent).toEqual({ input: QUESTION, max_output_tokens: 256 });
    const { instructions: _instructions, tools: _tools, ...answered } = response;
    expect(responses.calls[0]!.answered).toEqual(answered);

    const chats = await page(chatJob.jobId);
    expect(chats.calls[0]).toMatchObject({ api: "chat.completions", userAgent: "QwenCode/0.24.4" });
    expect(chats.calls[0]!.sent).toEqual({ messages: chatMessages });
    expect(chats.calls[0]!.answered).toEqual(chat.choices[0].message);

    // Paged: one call, then the next.
    const head = await page(messagesJob.jobId, "?limit=1");
    expect(head.calls.map((call) => call.seq)).toEqual([0]);
    expect(head.nextAfterSeq).toBe(0);
    expect((await page(messagesJob.jobId, "?afterSeq=0")).calls.map((call) => call.seq)).toEqual([1]);
    const bad = await fetch(`${server.url}/api/v1/jobs/${chatJob.jobId}/gateway-calls?limit=0`);
    expect(bad.status).toBe(400);
    const unknown = await fetch(`${server.url}/api/v1/jobs/job_nope/gateway-calls`);
    expect(unknown.status).toBe(404);
  }, 180_000);
});
