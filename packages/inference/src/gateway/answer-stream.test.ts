import { describe, expect, it } from "vitest";
import { createQwen3ModelFamily } from "../model/qwen3/qwen3-model-family";
import { type AnswerDelta, AnswerStream } from "./answer-stream";
import { cutAtStopStrings, toOpenAiAnswer } from "./openai-answer";

const family = createQwen3ModelFamily();

/** Streams `text`'s tokens one at a time; returns the deltas before `finish` and after it, and the answer. */
function streamOneByOne(text: string, stops: string[] = []) {
  const sampled = family.tokenizer.encode(text);
  const cut = cutAtStopStrings(
    family.tokenizer,
    sampled,
    sampled.map(() => -0.1),
    stops,
  );
  const stream = new AnswerStream(family.tokenizer, { stops });
  const live: AnswerDelta[] = [];
  for (const id of cut.responseIds) live.push(...stream.push([id]));
  const { message, stopSequence } = toOpenAiAnswer(family, cut.responseIds, {
    finishReason: "stop",
    parseToolCalls: true,
    knownTools: ["bash"],
    stops,
  });
  const rest = stream.finish(message);
  const join = (deltas: AnswerDelta[], key: keyof AnswerDelta) =>
    deltas.map((delta) => delta[key] ?? "").join("");
  return {
    message,
    stopSequence,
    cutText: family.tokenizer.decode(cut.responseIds),
    live,
    reasoning: join([...live, ...rest], "reasoning_content"),
    content: join([...live, ...rest], "content"),
    liveContent: join(live, "content"),
  };
}

describe("AnswerStream", () => {
  it("streams reasoning and content token by token, adding up to the parsed answer", () => {
    const result = streamOneByOne(
      "<think>\nFirst I look.\nThen I answer.\n</think>\n\nThe file says hello, wörld ✓.<|im_end|>",
    );
    expect(result.message.reasoning_content).toBe("First I look.\nThen I answer.");
    expect(result.reasoning).toBe(result.message.reasoning_content);
    expect(result.content).toBe("The file says hello, wörld ✓.");
    // Most of it went out while sampling, not at the end.
    expect(result.live.filter((delta) => delta.reasoning_content).length).toBeGreaterThan(3);
    expect(result.liveContent.length).toBeGreaterThan(10);
    // Never a half marker or a replacement character on the wire.
    expect(result.live.some((delta) => /<|\uFFFD/.test(delta.content ?? delta.reasoning_content ?? ""))).toBe(
      false,
    );
  });

  it("holds back tool-call blocks: content before them streams, the calls come whole from the answer", () => {
    const result = streamOneByOne(
      '<think>\nLook.\n</think>\n\nReading it.\n<tool_call>\n{"name": "bash", "arguments": {"command": "cat a.txt"}}\n</tool_call><|im_end|>',
    );
    expect(result.message.tool_calls).toHaveLength(1);
    expect(result.liveContent).toBe("Reading it.");
    expect(result.content).toBe(result.message.content);
  });

  it("never streams a stop string, and leaves it out of the answer (the sampled ids keep it)", () => {
    const result = streamOneByOne("<think>\nok\n</think>\n\nalpha beta STOP gamma delta", ["END", "STOP"]);
    expect(result.liveContent).toBe("alpha beta");
    expect(result.content).toBe("alpha beta");
    expect(result.message.content).toBe("alpha beta");
    expect(result.stopSequence).toBe("STOP");
    expect(result.cutText).toMatch(/alpha beta STOP$/);
    const plain = streamOneByOne("<think>\nok\n</think>\n\nalpha beta<|im_end|>", ["STOP"]);
    expect(plain).toMatchObject({ content: "alpha beta", stopSequence: null });
  });

  it("streams an answer without thinking as content", () => {
    const result = streamOneByOne("Just the answer.<|im_end|>");
    expect(result.reasoning).toBe("");
    expect(result.content).toBe("Just the answer.");
  });
});
