import { describe, expect, it } from "vitest";
import { createQwen3ModelFamily } from "./qwen3/qwen3-model-family";
import { createSegmentCachedTokenizer } from "./segment-cached-tokenizer";

const family = createQwen3ModelFamily();
const tools = [
  {
    name: "bash",
    description: "Run a shell command",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
];

/** Texts where a stretch boundary could matter: template glue, whitespace and marks beside added tokens. */
const corpus = [
  family.renderPrompt(
    [
      { role: "system", content: "You are a careful engineer." },
      { role: "user", content: "task_id: t-1\nList the files  \n\n" },
    ],
    { tools },
  ),
  family.renderContinuation(
    [
      { role: "tool", content: "a.txt\nb.txt\n" },
      { role: "tool", content: "  indented\r\n\tand tabs " },
    ],
    { hasEndOfTurn: true, enableThinking: true },
  ),
  family.renderContinuation([{ role: "user", content: "go on" }], {
    hasEndOfTurn: false,
    enableThinking: false,
  }),
  '<think>\nPlan.\n</think>\n\nText <tool_call>\n{"name": "bash", "arguments": {"command": "ls -la"}}\n</tool_call><|im_end|>',
  "no added tokens at all, just words 123 456 and ünïcödé ✓ 漢字",
  "<|im_start|>\u0301combining mark after a token<|im_end|>\u0308",
  " <tool_response> spaced </tool_response> ",
  "<|im_start|><|im_end|><think></think>",
  "<|im_start",
  "",
];

describe("createSegmentCachedTokenizer", () => {
  it("encodes exactly as the whole-text tokenizer, on first sight and from the cache", () => {
    const cached = createSegmentCachedTokenizer(family.tokenizer, { maxEntries: 8 });
    expect(cached).not.toBe(family.tokenizer);
    for (let round = 0; round < 2; round += 1) {
      for (const text of corpus)
        expect(cached.encode(text), JSON.stringify(text)).toEqual(family.tokenizer.encode(text));
    }
  });

  it("keeps the plain tokenizer when it names no added tokens", () => {
    const plain = { encode: (text: string) => [text.length], decode: () => "" };
    expect(createSegmentCachedTokenizer(plain)).toBe(plain);
  });
});
