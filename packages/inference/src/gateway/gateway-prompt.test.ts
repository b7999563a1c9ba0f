import type { TOpenAiMessage } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { createQwen3ModelFamily } from "../model/qwen3/qwen3-model-family";
import { buildGatewayPrompt, type SessionCall } from "./gateway-prompt";
import { cutAtStopStrings, toOpenAiAnswer } from "./openai-answer";
import { messageKey } from "./openai-messages";

const family = createQwen3ModelFamily();
const tools = [{ name: "bash", description: "Run", parameters: { type: "object" } }];
const opening: TOpenAiMessage[] = [
  { role: "system", content: "Be careful." },
  { role: "user", content: "List files." },
];

/** A first call whose sampled answer is not what re-encoding its text would give. */
function firstCall(): { call: SessionCall; answer: TOpenAiMessage } {
  const prompt = buildGatewayPrompt({ family, messages: opening, tools, enableThinking: true, history: [] });
  const text =
    '<think>\nLook.\n</think>\n\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call><|im_end|>';
  // Split "Look." into single characters: a valid sampling the tokenizer would never produce.
  const canonical = family.tokenizer.encode(text);
  const odd = [
    ...family.tokenizer.encode("<think>\n"),
    ...[..."Look."].flatMap((c) => family.tokenizer.encode(c)),
  ];
  const responseIds = [...odd, ...canonical.slice(family.tokenizer.encode("<think>\nLook.").length)];
  const { message } = toOpenAiAnswer(family, responseIds, {
    finishReason: "stop",
    parseToolCalls: true,
    knownTools: ["bash"],
  });
  const answer = message as TOpenAiMessage;
  return {
    answer,
    call: {
      id: "c0",
      messageKeys: opening.map((m, i) => messageKey(m, i)),
      answerKey: messageKey(answer, opening.length),
      toolCallIds: (message.tool_calls ?? []).map((c) => c.id),
      toolsKey: JSON.stringify(tools),
      enableThinking: true,
      promptIds: prompt.promptIds,
      responseIds,
    },
  };
}

describe("buildGatewayPrompt", () => {
  it("renders a fresh conversation with the Qwen3 template and the real tokenizer", () => {
    const prompt = buildGatewayPrompt({
      family,
      messages: opening,
      tools,
      enableThinking: true,
      history: [],
    });
    expect(prompt.isContinuation).toBe(false);
    expect(prompt.parentCallId).toBeNull();
    expect(family.tokenizer.decode(prompt.promptIds)).toBe(
      family.renderPrompt(
        [
          { role: "system", content: "Be careful." },
          { role: "user", content: "List files." },
        ],
        { tools },
      ),
    );
  });

  it("continues an earlier call with its sampled ids, never re-encoding them", () => {
    const { call, answer } = firstCall();
    const toolId = (answer as { tool_calls: { id: string }[] }).tool_calls[0]!.id;
    const messages = [
      ...opening,
      answer,
      { role: "tool", tool_call_id: toolId, content: "a.txt" } as TOpenAiMessage,
    ];
    const prompt = buildGatewayPrompt({ family, messages, tools, enableThinking: true, history: [call] });
    expect(prompt).toMatchObject({ isContinuation: true, parentCallId: "c0" });
    // Re-encoding the answer's text would give other ids than were sampled.
    expect(family.tokenizer.encode(family.tokenizer.decode(call.responseIds))).not.toEqual(call.responseIds);
    const head = [...call.promptIds, ...call.responseIds];
    expect(prompt.promptIds.slice(0, head.length)).toEqual(head);
    expect(family.tokenizer.decode(prompt.promptIds.slice(head.length))).toBe(
      "\n<|im_start|>user\n<tool_response>\na.txt\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("continues an answer whose arguments came back in another key order, not one with other values", () => {
    const prompt = buildGatewayPrompt({
      family,
      messages: opening,
      tools,
      enableThinking: true,
      history: [],
    });
    const responseIds = family.tokenizer.encode(
      '<tool_call>\n{"name": "bash", "arguments": {"timeout": 5, "command": "ls", "env": {"B": "1", "A": "2"}}}\n</tool_call><|im_end|>',
    );
    const { message } = toOpenAiAnswer(family, responseIds, {
      finishReason: "stop",
      parseToolCalls: true,
      knownTools: ["bash"],
    });
    const answer = message as TOpenAiMessage;
    const call: SessionCall = {
      id: "c0",
      messageKeys: prompt.messageKeys,
      answerKey: messageKey(answer, opening.length),
      toolCallIds: (message.tool_calls ?? []).map((c) => c.id),
      toolsKey: prompt.toolsKey,
      enableThinking: true,
      promptIds: prompt.promptIds,
      responseIds,
    };
    const echoWith = (args: unknown): TOpenAiMessage[] => [
      ...opening,
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { ...message.tool_calls![0]!, function: { name: "bash", arguments: JSON.stringify(args) } },
        ],
      },
      { role: "tool", tool_call_id: call.toolCallIds[0], content: "a.txt" },
    ];
    // As a harness that parses arguments with its schema sends them back: keys in its own order.
    const reordered = echoWith({ command: "ls", env: { A: "2", B: "1" }, timeout: 5 });
    expect(
      buildGatewayPrompt({ family, messages: reordered, tools, enableThinking: true, history: [call] }),
    ).toMatchObject({ isContinuation: true, parentCallId: "c0" });
    const edited = echoWith({ command: "ls", env: { A: "2", B: "1" }, timeout: 50 });
    expect(
      buildGatewayPrompt({ family, messages: edited, tools, enableThinking: true, history: [call] }),
    ).toMatchObject({ isContinuation: false, parentCallId: "c0" });
  });

  it("renders an edited history whole but still names the answer it ended with", () => {
    const { call, answer } = firstCall();
    const edited = [{ role: "system", content: "Be brief." } as TOpenAiMessage, opening[1]!, answer];
    const prompt = buildGatewayPrompt({
      family,
      messages: [...edited, { role: "user", content: "go on" }],
      tools,
      enableThinking: true,
      history: [call],
    });
    expect(prompt).toMatchObject({ isContinuation: false, parentCallId: "c0" });
  });
});

describe("OpenAI answers", () => {
  it("keeps text and a malformed call as written when tool calls are off or broken", () => {
    const ids = family.tokenizer.encode(
      'Sure.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call><|im_end|>',
    );
    const none = toOpenAiAnswer(family, ids, { finishReason: "stop", parseToolCalls: false, knownTools: [] });
    expect(none.message.tool_calls).toBeUndefined();
    expect(none.message.content).toContain("<tool_call>");
    expect(none.finishReason).toBe("stop");
    const broken = family.tokenizer.encode('<tool_call>{"name": "bash", "arguments": {</tool_call>');
    const answer = toOpenAiAnswer(family, broken, {
      finishReason: "length",
      parseToolCalls: true,
      knownTools: [],
    });
    expect(answer).toMatchObject({
      finishReason: "length",
      message: { content: expect.stringContaining("<tool_call>") },
    });
  });

  it("cuts the sampled ids after the token that completes a stop string, logprobs alike", () => {
    const ids = family.tokenizer.encode("one two STOP three four");
    const logprobs = ids.map((_, i) => -i);
    const cut = cutAtStopStrings(family.tokenizer, ids, logprobs, ["STOP"]);
    expect(cut.isCut).toBe(true);
    expect(family.tokenizer.decode(cut.responseIds)).toMatch(/STOP$/);
    expect(cut.logprobs).toEqual(logprobs.slice(0, cut.responseIds.length));
    expect(cutAtStopStrings(family.tokenizer, ids, logprobs, ["nope"]).isCut).toBe(false);
  });
});
