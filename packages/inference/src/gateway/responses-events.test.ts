// The gateway's answer in the Responses API's shape: the response object, and the streamed events
// compared with a stream written by hand after OpenAI's streaming documentation (reasoning text,
// an output_text message, a function call; sequence numbers; response.completed).
import { type TChatCompletion, ZResponsesRequest } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { callIdOfResponse, toResponsesResponse } from "./responses-answer";
import { ResponsesEventStream } from "./responses-events";

const COMPLETION: TChatCompletion = {
  id: "chatcmpl-gwc_77aa",
  object: "chat.completion",
  created: 1_765_000_000,
  model: "Qwen/Qwen3-8B",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: "Listing.",
        reasoning_content: "Look first.",
        tool_calls: [
          { id: "call_5e2b", type: "function", function: { name: "shell", arguments: '{"command":["ls"]}' } },
        ],
      },
      finish_reason: "tool_calls",
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
};
const REQUEST = ZResponsesRequest.parse({ instructions: "Be brief.", input: "List files.", stream: true });
const base = { callId: "gwc_77aa", request: REQUEST, model: "Qwen/Qwen3-8B", createdAtSec: 1_765_000_000 };

describe("Responses answers", () => {
  it("builds the response with reasoning, message and function_call items and usage", () => {
    const response = toResponsesResponse({ ...base, completion: COMPLETION });
    expect(response).toMatchObject({
      id: "resp_gwc_77aa",
      object: "response",
      status: "completed",
      incomplete_details: null,
      instructions: "Be brief.",
      output: [
        {
          id: "rs_gwc_77aa",
          type: "reasoning",
          summary: [],
          content: [{ type: "reasoning_text", text: "Look first." }],
        },
        {
          id: "msg_gwc_77aa",
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "Listing.", annotations: [] }],
        },
        {
          id: "fc_gwc_77aa_0",
          type: "function_call",
          status: "completed",
          call_id: "call_5e2b",
          name: "shell",
          arguments: '{"command":["ls"]}',
        },
      ],
      usage: { input_tokens: 120, output_tokens: 30, total_tokens: 150 },
    });
    expect(callIdOfResponse(response.id)).toBe("gwc_77aa");
    expect(callIdOfResponse("chatcmpl-gwc_77aa")).toBeNull();
    const [choice] = COMPLETION.choices;
    const cut = {
      ...COMPLETION,
      choices: [{ ...choice, finish_reason: "length" as const }],
    } as TChatCompletion;
    expect(toResponsesResponse({ ...base, completion: cut })).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
  });

  it("streams the events OpenAI's documentation shows, ids and indexes matching the final response", () => {
    const stream = new ResponsesEventStream();
    const created = toResponsesResponse({ ...base, completion: null });
    const done = toResponsesResponse({ ...base, completion: COMPLETION });
    const events = [
      ...stream.start(created, "gwc_77aa"),
      ...stream.delta({ reasoning_content: "Look first." }),
      ...stream.delta({ content: "List" }),
      ...stream.delta({ content: "ing." }),
      ...stream.finish(done),
    ];
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, i) => i));
    const shown = events.map(({ event, data }) => {
      const { type, sequence_number: _, response, ...rest } = data;
      expect(type).toBe(event);
      return response === undefined
        ? [event, rest]
        : [event, { status: (response as { status: string }).status }];
    });
    const item = (id: string, output_index: number) => ({ item_id: id, output_index });
    expect(shown).toEqual([
      ["response.created", { status: "in_progress" }],
      ["response.in_progress", { status: "in_progress" }],
      [
        "response.output_item.added",
        { output_index: 0, item: { id: "rs_gwc_77aa", type: "reasoning", summary: [], content: [] } },
      ],
      [
        "response.content_part.added",
        { ...item("rs_gwc_77aa", 0), content_index: 0, part: { type: "reasoning_text", text: "" } },
      ],
      [
        "response.reasoning_text.delta",
        { ...item("rs_gwc_77aa", 0), content_index: 0, delta: "Look first." },
      ],
      ["response.reasoning_text.done", { ...item("rs_gwc_77aa", 0), content_index: 0, text: "Look first." }],
      [
        "response.content_part.done",
        {
          ...item("rs_gwc_77aa", 0),
          content_index: 0,
          part: { type: "reasoning_text", text: "Look first." },
        },
      ],
      ["response.output_item.done", { output_index: 0, item: done.output[0] }],
      [
        "response.output_item.added",
        {
          output_index: 1,
          item: {
            id: "msg_gwc_77aa",
            type: "message",
            status: "in_progress",
            role: "assistant",
            content: [],
          },
        },
      ],
      [
        "response.content_part.added",
        {
          ...item("msg_gwc_77aa", 1),
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        },
      ],
      [
        "response.output_text.delta",
        { ...item("msg_gwc_77aa", 1), content_index: 0, delta: "List", logprobs: [] },
      ],
      [
        "response.output_text.delta",
        { ...item("msg_gwc_77aa", 1), content_index: 0, delta: "ing.", logprobs: [] },
      ],
      [
        "response.output_text.done",
        { ...item("msg_gwc_77aa", 1), content_index: 0, text: "Listing.", logprobs: [] },
      ],
      [
        "response.content_part.done",
        {
          ...item("msg_gwc_77aa", 1),
          content_index: 0,
          part: { type: "output_text", text: "Listing.", annotations: [] },
        },
      ],
      ["response.output_item.done", { output_index: 1, item: done.output[1] }],
      [
        "response.output_item.added",
        { output_index: 2, item: { ...done.output[2], status: "in_progress", arguments: "" } },
      ],
      [
        "response.function_call_arguments.delta",
        { ...item("fc_gwc_77aa_0", 2), delta: '{"command":["ls"]}' },
      ],
      [
        "response.function_call_arguments.done",
        { ...item("fc_gwc_77aa_0", 2), arguments: '{"command":["ls"]}' },
      ],
      ["response.output_item.done", { output_index: 2, item: done.output[2] }],
      ["response.completed", { status: "completed" }],
    ]);
  });
});
