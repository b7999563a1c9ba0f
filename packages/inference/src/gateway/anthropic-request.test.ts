// Anthropic Messages requests as a coding agent sends them (system blocks with cache_control,
// thinking blocks with signatures, tool_use / tool_result with block content, metadata) mapped
// onto the chat completion request the gateway serves.
import { ZAnthropicCountTokensRequest, ZAnthropicMessagesRequest } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { toChatRequestFromAnthropic } from "./anthropic-request";

const REQUEST = {
  model: "claude-sonnet-4-5-20250929",
  max_tokens: 32_000,
  stream: true,
  temperature: 1,
  metadata: { user_id: "user_abc_account__session_123" },
  system: [
    { type: "text", text: "You are a coding agent.", cache_control: { type: "ephemeral" } },
    { type: "text", text: "\nWork in /repo." },
  ],
  tools: [
    {
      name: "Bash",
      description: "Executes a bash command",
      input_schema: {
        type: "object",
        properties: { command: { type: "string" }, timeout: { type: "number" } },
        required: ["command"],
        additionalProperties: false,
        $schema: "http://json-schema.org/draft-07/schema#",
      },
    },
  ],
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "<system-reminder>Be brief.</system-reminder>\n\n" },
        { type: "text", text: "Fix the failing test.", cache_control: { type: "ephemeral" } },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Run the tests first.", signature: "EqQBCkYIBxgCKkB..." },
        { type: "text", text: "Running the tests." },
        {
          type: "tool_use",
          id: "toolu_01A09q90qw90lq917835lq9",
          name: "Bash",
          input: { command: "npm test" },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01A09q90qw90lq917835lq9",
          content: [{ type: "text", text: "1 failing" }],
          is_error: false,
        },
        { type: "text", text: "Go on." },
      ],
    },
  ],
};

describe("toChatRequestFromAnthropic", () => {
  it("maps system blocks, content blocks, tool_use and tool_result onto chat messages", () => {
    const chat = toChatRequestFromAnthropic(ZAnthropicMessagesRequest.parse(REQUEST));
    expect(chat).toEqual({
      messages: [
        { role: "system", content: "You are a coding agent.\nWork in /repo." },
        { role: "user", content: "<system-reminder>Be brief.</system-reminder>\n\nFix the failing test." },
        {
          role: "assistant",
          content: "Running the tests.",
          reasoning_content: "Run the tests first.",
          tool_calls: [
            {
              id: "toolu_01A09q90qw90lq917835lq9",
              type: "function",
              function: { name: "Bash", arguments: '{"command":"npm test"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "toolu_01A09q90qw90lq917835lq9", content: "1 failing" },
        { role: "user", content: "Go on." },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "Bash",
            description: "Executes a bash command",
            parameters: REQUEST.tools[0]?.input_schema,
          },
        },
      ],
      max_tokens: 32_000,
      temperature: 1,
    });
  });

  it("maps tool_choice, stop_sequences, top_k and disabled thinking; a string content stays a string", () => {
    const chat = toChatRequestFromAnthropic(
      ZAnthropicMessagesRequest.parse({
        max_tokens: 100,
        system: "Be terse.",
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "done" }] },
        ],
        tools: [{ name: "Bash", input_schema: { type: "object" } }],
        tool_choice: { type: "tool", name: "Bash", disable_parallel_tool_use: true },
        stop_sequences: ["\n\nHuman:"],
        top_k: 40,
        thinking: { type: "disabled" },
      }),
    );
    expect(chat.messages).toEqual([
      { role: "system", content: "Be terse." },
      { role: "user", content: "Hi" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "Bash", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "toolu_1", content: "done" },
    ]);
    expect(chat).toMatchObject({
      tool_choice: { type: "function", function: { name: "Bash" } },
      stop: ["\n\nHuman:"],
      top_k: 40,
      chat_template_kwargs: { enable_thinking: false },
    });
    const any = ZAnthropicMessagesRequest.parse({
      max_tokens: 1,
      messages: [{ role: "user", content: "x" }],
      tool_choice: { type: "any" },
    });
    expect(toChatRequestFromAnthropic(any).tool_choice).toBe("required");
  });

  it("keeps a system turn between the others in its place, as Claude Code 2.1 sends one", () => {
    const chat = toChatRequestFromAnthropic(
      ZAnthropicMessagesRequest.parse({
        max_tokens: 64_000,
        thinking: { type: "adaptive" },
        context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] },
        output_config: { effort: "high" },
        messages: [
          { role: "user", content: [{ type: "text", text: "What files are here?" }] },
          { role: "system", content: "Available agent types for the Agent tool:\n- Explore" },
          { role: "system", content: [{ type: "text", text: "A reminder." }] },
        ],
      }),
    );
    expect(chat.messages).toEqual([
      { role: "user", content: "What files are here?" },
      { role: "system", content: "Available agent types for the Agent tool:\n- Explore" },
      { role: "system", content: "A reminder." },
    ]);
    expect(chat.chat_template_kwargs).toBeUndefined();
  });

  it("joins a turn's text blocks as written, so that an answer split into blocks reads back whole", () => {
    const chat = toChatRequestFromAnthropic(
      ZAnthropicMessagesRequest.parse({
        max_tokens: 100,
        system: [
          { type: "text", text: "header;" },
          { type: "text", text: "You are an agent." },
        ],
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Fix " },
              { type: "text", text: "it." },
            ],
          },
          {
            role: "assistant",
            content: [
              { type: "text", text: "First I look" },
              { type: "text", text: ", then I fix." },
              { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } },
            ],
          },
        ],
      }),
    );
    expect(chat.messages.map((message) => message.content)).toEqual([
      "header;You are an agent.",
      "Fix it.",
      "First I look, then I fix.",
    ]);
  });

  it("tells the model which tool results are errors, whatever form their content takes", () => {
    const chat = toChatRequestFromAnthropic(
      ZAnthropicMessagesRequest.parse({
        max_tokens: 100,
        messages: [
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_1", content: "Exit code 2", is_error: true },
              {
                type: "tool_result",
                tool_use_id: "toolu_2",
                content: [{ type: "text", text: "<tool_use_error>No such file</tool_use_error>" }],
                is_error: true,
              },
              { type: "tool_result", tool_use_id: "toolu_3", is_error: true },
              { type: "tool_result", tool_use_id: "toolu_4", content: "ok", is_error: false },
            ],
          },
        ],
      }),
    );
    expect(chat.messages).toEqual([
      { role: "tool", tool_call_id: "toolu_1", content: "Error: Exit code 2" },
      {
        role: "tool",
        tool_call_id: "toolu_2",
        content: "Error: <tool_use_error>No such file</tool_use_error>",
      },
      { role: "tool", tool_call_id: "toolu_3", content: "Error: " },
      { role: "tool", tool_call_id: "toolu_4", content: "ok" },
    ]);
  });

  it("counts tokens of a request without limits, and refuses blocks the model cannot read with a 400", () => {
    const { max_tokens: _, stream: __, temperature: ___, ...counted } = REQUEST;
    const chat = toChatRequestFromAnthropic(ZAnthropicCountTokensRequest.parse(counted));
    expect(chat.max_tokens).toBeUndefined();
    expect(chat.messages).toHaveLength(5);
    const image = ZAnthropicMessagesRequest.parse({
      max_tokens: 1,
      messages: [
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_1",
              content: [
                { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
              ],
            },
          ],
        },
      ],
    });
    expect(() => toChatRequestFromAnthropic(image)).toThrow(/messages\[0\]: image blocks in a tool_result/);
    expect(ZAnthropicMessagesRequest.safeParse({ messages: [{ role: "user", content: "x" }] }).success).toBe(
      false,
    );
  });
});
