// OpenAI Responses requests as a coding agent sends them (instructions, developer and user
// messages, encrypted reasoning items, function calls and their outputs, strict function tools,
// store/include/prompt_cache_key) mapped onto the chat completion request the gateway serves.
import { ZResponsesRequest } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { toChatRequestFromResponses } from "./responses-request";

const REQUEST = {
  model: "gpt-5-codex",
  instructions: "You are a coding agent running in a terminal.",
  input: [
    {
      type: "message",
      role: "developer",
      content: [{ type: "input_text", text: "<permissions>full</permissions>" }],
    },
    {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "<environment_context>cwd=/repo</environment_context>" },
        { type: "input_text", text: "Fix the failing test." },
      ],
    },
    {
      type: "reasoning",
      id: "rs_68c1f0a2",
      summary: [{ type: "summary_text", text: "Run the tests." }],
      content: null,
      encrypted_content: "gAAAAABoweI...",
    },
    {
      type: "message",
      role: "assistant",
      id: "msg_68c1f0a3",
      content: [{ type: "output_text", text: "Running the tests.", annotations: [] }],
    },
    {
      type: "function_call",
      id: "fc_68c1f0a4",
      call_id: "call_Vx2mZ7d1",
      name: "shell",
      arguments: '{"command":["npm","test"]}',
    },
    { type: "function_call_output", call_id: "call_Vx2mZ7d1", output: "1 failing" },
  ],
  tools: [
    {
      type: "function",
      name: "shell",
      description: "Runs a shell command",
      strict: false,
      parameters: {
        type: "object",
        properties: { command: { type: "array", items: { type: "string" } } },
        required: ["command"],
        additionalProperties: false,
      },
    },
  ],
  tool_choice: "auto",
  parallel_tool_calls: false,
  reasoning: { effort: "medium", summary: "auto" },
  store: false,
  stream: true,
  include: ["reasoning.encrypted_content"],
  prompt_cache_key: "0199a3c2-session",
  max_output_tokens: 2_048,
};

describe("toChatRequestFromResponses", () => {
  it("maps instructions and input items onto chat messages, one assistant message per turn", () => {
    const chat = toChatRequestFromResponses(ZResponsesRequest.parse(REQUEST), null);
    expect(chat).toEqual({
      messages: [
        { role: "system", content: "You are a coding agent running in a terminal.", name: "instructions" },
        { role: "developer", content: "<permissions>full</permissions>" },
        {
          role: "user",
          content: "<environment_context>cwd=/repo</environment_context>\nFix the failing test.",
        },
        {
          role: "assistant",
          content: "Running the tests.",
          reasoning_content: "Run the tests.",
          tool_calls: [
            {
              id: "call_Vx2mZ7d1",
              type: "function",
              function: { name: "shell", arguments: '{"command":["npm","test"]}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_Vx2mZ7d1", content: "1 failing" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "shell",
            description: "Runs a shell command",
            parameters: REQUEST.tools[0]?.parameters,
          },
        },
      ],
      tool_choice: "auto",
      max_tokens: 2_048,
    });
  });

  it("continues a previous response: its messages without its instructions, its answer, then the input", () => {
    const previous = {
      messages: [
        { role: "system" as const, content: "Old instructions.", name: "instructions" },
        { role: "user" as const, content: "List files." },
      ],
      answer: {
        role: "assistant" as const,
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function" as const,
            function: { name: "shell", arguments: '{"command":["ls"]}' },
          },
        ],
      },
    };
    const request = ZResponsesRequest.parse({
      instructions: "New instructions.",
      previous_response_id: "resp_gwc_1",
      input: [
        { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "a.txt" }] },
      ],
      tool_choice: { type: "function", name: "shell" },
      reasoning: { effort: "none" },
      temperature: 0.2,
    });
    const chat = toChatRequestFromResponses(request, previous);
    expect(chat.messages).toEqual([
      { role: "system", content: "New instructions.", name: "instructions" },
      { role: "user", content: "List files." },
      previous.answer,
      { role: "tool", tool_call_id: "call_1", content: "a.txt" },
    ]);
    expect(chat).toMatchObject({
      tool_choice: { type: "function", function: { name: "shell" } },
      chat_template_kwargs: { enable_thinking: false },
      temperature: 0.2,
    });
    expect(toChatRequestFromResponses(ZResponsesRequest.parse({ input: "Hello" }), null).messages).toEqual([
      { role: "user", content: "Hello" },
    ]);
  });

  it("offers function tools, a namespace's under their names, and leaves out hosted tools", () => {
    const request = ZResponsesRequest.parse({
      input: "x",
      tools: [
        { type: "function", name: "exec_command", parameters: { type: "object", properties: {} } },
        {
          type: "namespace",
          name: "multi_agent_v1",
          description: "Tools for spawning and managing sub-agents.",
          tools: [{ type: "function", name: "close_agent", description: "Close an agent", strict: false }],
        },
        { type: "web_search", external_web_access: true },
      ],
    });
    expect(toChatRequestFromResponses(request, null).tools?.map((tool) => tool.function.name)).toEqual([
      "exec_command",
      "close_agent",
    ]);
    const onlyHosted = ZResponsesRequest.parse({ input: "x", tools: [{ type: "web_search" }] });
    expect(toChatRequestFromResponses(onlyHosted, null).tools).toBeUndefined();
  });

  it("refuses item references, images, nameless functions and incomplete items with a 400", () => {
    const map = (body: unknown) => () => toChatRequestFromResponses(ZResponsesRequest.parse(body), null);
    expect(map({ input: "x", tools: [{ type: "function" }] })).toThrow(
      /tools\[0\]: a function tool needs a name/,
    );
    expect(map({ input: [{ type: "item_reference", id: "msg_1" }] })).toThrow(/items of type item_reference/);
    expect(
      map({
        input: [
          { role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,iVBOR" }] },
        ],
      }),
    ).toThrow(/input_image parts are not supported/);
    expect(ZResponsesRequest.safeParse({ input: [{ type: "function_call", name: "shell" }] }).success).toBe(
      false,
    );
    expect(map({ input: [] })).toThrow(/input holds no items/);
  });
});
