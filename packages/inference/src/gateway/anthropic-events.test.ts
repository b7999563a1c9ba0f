// The gateway's answer in Anthropic's shape: the message object, and the streamed events compared
// with a stream written by hand after Anthropic's streaming documentation (thinking, text and
// tool_use blocks; message_delta with the stop reason and usage).
import type { TChatCompletion } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { toAnthropicMessage } from "./anthropic-answer";
import { AnthropicEventStream } from "./anthropic-events";

const COMPLETION: TChatCompletion = {
  id: "chatcmpl-gwc_0123abcd",
  object: "chat.completion",
  created: 1_765_000_000,
  model: "Qwen/Qwen3-8B",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: "Checking the weather.",
        reasoning_content: "Need the tool.",
        tool_calls: [
          {
            id: "toolu_9f86d081884c",
            type: "function",
            function: { name: "get_weather", arguments: '{"location":"San Francisco, CA"}' },
          },
        ],
      },
      finish_reason: "tool_calls",
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 472, completion_tokens: 89, total_tokens: 561 },
};

describe("Anthropic answers", () => {
  it("builds the message with thinking, text and tool_use blocks and the stop reason", () => {
    expect(toAnthropicMessage(COMPLETION, "gwc_0123abcd")).toEqual({
      id: "msg_gwc_0123abcd",
      type: "message",
      role: "assistant",
      model: "Qwen/Qwen3-8B",
      content: [
        { type: "thinking", thinking: "Need the tool.", signature: "raas:gwc_0123abcd" },
        { type: "text", text: "Checking the weather." },
        {
          type: "tool_use",
          id: "toolu_9f86d081884c",
          name: "get_weather",
          input: { location: "San Francisco, CA" },
        },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 472,
        output_tokens: 89,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
  });

  it("says max_tokens for a cut answer and names the stop sequence that ended one", () => {
    const [choice] = COMPLETION.choices;
    const plain = { ...choice.message, tool_calls: undefined, reasoning_content: null };
    const cut = { ...COMPLETION, choices: [{ ...choice, message: plain, finish_reason: "length" as const }] };
    expect(toAnthropicMessage(cut as TChatCompletion, "c")).toMatchObject({ stop_reason: "max_tokens" });
    const stopped = (stopReason: string | null) => ({
      ...COMPLETION,
      choices: [
        {
          ...choice,
          message: { ...plain, content: "Answer: 42" },
          finish_reason: "stop" as const,
          stop_reason: stopReason,
        },
      ],
    });
    expect(toAnthropicMessage(stopped("END") as TChatCompletion, "c")).toMatchObject({
      stop_reason: "stop_sequence",
      stop_sequence: "END",
      content: [{ type: "text", text: "Answer: 42" }],
    });
    expect(toAnthropicMessage(stopped(null) as TChatCompletion, "c")).toMatchObject({
      stop_reason: "end_turn",
      stop_sequence: null,
    });
  });

  it("streams the events Anthropic's documentation shows, block indexes matching the content", () => {
    const stream = new AnthropicEventStream();
    const events = [
      ...stream.start({ callId: "gwc_0123abcd", model: "Qwen/Qwen3-8B", promptTokens: 472 }),
      ...stream.delta({ reasoning_content: "Need " }),
      ...stream.delta({ reasoning_content: "the tool." }),
      ...stream.delta({ content: "Checking the weather." }),
      ...stream.finish(toAnthropicMessage(COMPLETION, "gwc_0123abcd")),
    ];
    const recorded = `event: message_start
data: {"type":"message_start","message":{"id":"msg_gwc_0123abcd","type":"message","role":"assistant","model":"Qwen/Qwen3-8B","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":0}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Need "}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"the tool."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"raas:gwc_0123abcd"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Checking the weather."}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_9f86d081884c","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"location\\":\\"San Francisco, CA\\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}

event: message_stop
data: {"type":"message_stop"}
`;
    const written = events
      .map((event) => `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n`)
      .join("\n");
    expect(written).toBe(recorded);
  });
});
