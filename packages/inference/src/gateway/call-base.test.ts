import { describe, expect, it } from "vitest";
import { isSameJson, shareWithParent } from "./call-base";

const tools = [{ type: "function", function: { name: "bash", parameters: { type: "object" } } }];
const parent = {
  seq: 3,
  promptIds: [1, 2, 3, 4],
  responseIds: [5, 6],
  messages: [
    { role: "system", content: "Be careful." },
    { role: "user", content: "Fix the bug." },
  ],
  tools,
};

describe("shareWithParent", () => {
  it("a continuation repeats the parent's prompt, response and messages; the repeated messages become the parent's objects", () => {
    const messages = [
      { role: "system", content: "Be careful." },
      { role: "user", content: "Fix the bug." },
      { role: "assistant", content: "ok" },
      { role: "tool", tool_call_id: "c1", content: "done" },
    ];
    const shared = shareWithParent(parent, {
      promptIds: [1, 2, 3, 4, 5, 6, 7, 8],
      messages,
      tools: structuredClone(tools),
    });
    expect(shared?.base).toEqual({ seq: 3, promptTokens: 6, messages: 2, isSameTools: true });
    expect(shared?.messages).toEqual(messages);
    expect(shared?.messages[0]).toBe(parent.messages[0]);
    expect(shared?.messages[1]).toBe(parent.messages[1]);
    expect(shared?.messages[2]).toBe(messages[2]);
    expect(shared?.tools).toBe(tools);
  });

  it("stops at the first difference: a rewritten message, a re-rendered prompt, other tools", () => {
    const shared = shareWithParent(parent, {
      promptIds: [1, 2, 9, 4, 5, 6],
      messages: [
        { role: "system", content: "Be careful." },
        { role: "user", content: "Fix the other bug." },
      ],
      tools: [],
    });
    expect(shared?.base).toEqual({ seq: 3, promptTokens: 2, messages: 1, isSameTools: false });
    expect(shared?.tools).toEqual([]);
    // A prompt that ends inside the parent's response, and one longer than prompt + response.
    expect(
      shareWithParent(parent, { promptIds: [1, 2, 3, 4, 5], messages: [], tools })?.base.promptTokens,
    ).toBe(5);
    expect(
      shareWithParent(parent, { promptIds: [1, 2, 3, 4, 5, 7], messages: [], tools })?.base.promptTokens,
    ).toBe(5);
  });

  it("is null when nothing is repeated", () => {
    expect(
      shareWithParent(parent, { promptIds: [7], messages: [{ role: "user", content: "x" }], tools: [] }),
    ).toBeNull();
  });
});

describe("isSameJson", () => {
  it("compares as JSON text would: values, and keys in their order", () => {
    expect(isSameJson({ a: [1, { b: null }], c: "x" }, { a: [1, { b: null }], c: "x" })).toBe(true);
    expect(isSameJson({ a: 1, c: 2 }, { c: 2, a: 1 })).toBe(false);
    expect(isSameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(isSameJson([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(isSameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(isSameJson("1", 1)).toBe(false);
    expect(isSameJson(null, {})).toBe(false);
  });
});
