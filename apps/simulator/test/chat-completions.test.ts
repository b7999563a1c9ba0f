// The simulator's `/v1/chat/completions` (vLLM's OpenAI-compatible chat endpoint, as a harness
// calls a model server directly): the server renders and tokenizes the messages, and answers with
// an OpenAI message whose thinking and tool calls are parsed out.
import { createQwen3ModelFamily, toChatMessage, toToolSpecs } from "@raas/inference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../src/start-simulator";

const TASK = "chat-endpoint-1";
const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "bash",
      description: "Run a shell command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  },
];

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

describe("simulator /v1/chat/completions", () => {
  let simulator: RunningSimulator;
  const family = createQwen3ModelFamily();

  beforeAll(async () => {
    simulator = await startSimulator({
      policy: {
        kind: "scripted",
        tasks: {
          [TASK]: {
            steps: [
              { thinking: "List first.", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
              { thinking: "Done now.", content: "Two files." },
            ],
          },
        },
      },
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
    });
  });
  afterAll(() => simulator.close());

  const chat = async (body: Json) => {
    const response = await fetch(`${simulator.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  it("renders the messages with the template, and parses thinking and tool calls from the answer", async () => {
    const messages: Json[] = [{ role: "user", content: `task_id: ${TASK}\nWhat is here?` }];
    const first = await chat({ messages, tools: TOOLS, return_token_ids: true });
    expect(first.status).toBe(200);
    const rendered = family.renderPrompt(
      messages.map((message, i) => toChatMessage(message, i)),
      { tools: toToolSpecs(TOOLS), enableThinking: true },
    );
    expect(first.body.prompt_token_ids).toEqual(family.tokenizer.encode(rendered));
    const [choice] = first.body.choices;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message).toMatchObject({
      role: "assistant",
      content: null,
      reasoning_content: "List first.",
    });
    expect(choice.message.tool_calls).toHaveLength(1);
    expect(choice.message.tool_calls[0].function.name).toBe("bash");
    expect(JSON.parse(choice.message.tool_calls[0].function.arguments)).toEqual({ command: "ls" });
    expect(family.tokenizer.decode(choice.token_ids)).toContain("<tool_call>");

    messages.push(choice.message, {
      role: "tool",
      tool_call_id: choice.message.tool_calls[0].id,
      content: "a\nb",
    });
    const second = await chat({ messages, tools: TOOLS, return_token_ids: true });
    expect(second.status).toBe(200);
    expect(second.body.choices[0].message).toMatchObject({
      content: "Two files.",
      reasoning_content: "Done now.",
    });
    // A history is rendered afresh, as a model server does: the earlier turn's thinking is gone.
    expect(family.tokenizer.decode(second.body.prompt_token_ids)).not.toContain("List first.");
    expect(second.body.usage.prompt_tokens).toBe(second.body.prompt_token_ids.length);
  });

  it("leaves token ids out unless asked, and refuses a stream or a request without messages with a 400", async () => {
    const plain = await chat({ messages: [{ role: "user", content: `task_id: ${TASK}\nHi` }] });
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty("prompt_token_ids");
    expect(plain.body.choices[0]).not.toHaveProperty("token_ids");
    const streamed = await chat({ messages: [{ role: "user", content: "Hi" }], stream: true });
    expect(streamed.status).toBe(400);
    expect(streamed.body.error.message).toMatch(/stream/);
    const empty = await chat({ messages: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/messages/);
  });
});
