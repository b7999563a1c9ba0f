import { describe, expect, it } from "vitest";
import { ZChatCompletionRequest } from "./openai-chat.schema";
import { parseChatCompletionRequest, readChatCompletionRequestFast } from "./openai-chat-fast-parse";
import { seededRandom } from "./seeded-random";

/** A seeded generator, so that a failure names a case that can be run again. */
function seeded(seed: number) {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

/** Values of every kind, right and wrong, for any field. */
const ODD = [null, 0, -1, 1.5, 2 ** 60, "", "x", true, [], {}, [1], { a: 1 }];

function randomRequest(random: ReturnType<typeof seeded>): unknown {
  const { next, pick } = random;
  /** Mostly a right value, sometimes a wrong one: most requests have one flaw at most. */
  const choose = <T>(right: readonly T[], wrongs: readonly unknown[] = ODD): unknown =>
    next() < 0.93 ? pick(right) : pick(wrongs);
  const content = () =>
    choose<unknown>(
      [
        "hello",
        "",
        [{ type: "text", text: "part" }],
        [{ text: "part", type: "text", cache_control: { type: "ephemeral" } }],
      ],
      [[{ type: "image_url", image_url: "x" }], [{ type: "text" }], null, ...ODD],
    );
  const toolCall = () =>
    choose<unknown>(
      [
        { id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
        { id: "c2", function: { arguments: "{}", name: "edit", extra: 1 }, index: 0 },
      ],
      [
        { id: "c3", type: "custom", function: { name: "x", arguments: "{}" } },
        { type: "function", function: { name: "x", arguments: {} } },
        { id: "c4", function: { name: "x" } },
        ...ODD,
      ],
    );
  const message = () => {
    const role = choose(
      ["system", "developer", "user", "assistant", "assistant", "tool"],
      ["function", 7, null],
    );
    const out: Record<string, unknown> = {};
    // Keys in varying order: the output's order must not depend on it.
    const fields: [string, () => unknown][] = [
      ["role", () => role],
      ["content", content],
      ["reasoning_content", () => choose(["thinking", null], [3])],
      ["tool_calls", () => choose([[toolCall()], [], null, [toolCall(), toolCall()]])],
      ["tool_call_id", () => choose(["c1"], [5, null])],
      ["name", () => "alice"],
    ];
    for (const [key, value] of fields.sort(() => next() - 0.5)) {
      const odds = key === "content" ? 0.9 : role === "assistant" ? 0.5 : 0.15;
      if (key === "role" || next() < odds) out[key] = value();
    }
    return out;
  };
  const tool = () =>
    choose<unknown>(
      [
        { type: "function", function: { name: "bash", description: "run", parameters: { type: "object" } } },
        { type: "function", function: { name: "bash" } },
        {
          x: 1,
          type: "function",
          function: { parameters: { properties: {}, type: "object" }, strict: true, name: "bash" },
        },
      ],
      [
        { type: "function", function: { name: "" } },
        { type: "function", function: { name: "bash", parameters: null } },
        { type: "function", function: { name: "bash", description: null } },
        { type: "function" },
        { type: "web_search" },
        ...ODD,
      ],
    );
  const body: Record<string, unknown> = {};
  const fields: [string, () => unknown][] = [
    ["model", () => choose(["qwen3"], [3])],
    [
      "messages",
      () =>
        next() < 0.97 ? Array.from({ length: 1 + Math.floor(next() * 5) }, message) : pick([[], ...ODD]),
    ],
    ["tools", () => choose([Array.from({ length: Math.floor(next() * 3) }, tool)])],
    [
      "tool_choice",
      () =>
        choose(
          ["auto", "none", "required", { type: "function", function: { name: "bash", x: 1 } }],
          ["any", { type: "function" }, ...ODD],
        ),
    ],
    ["temperature", () => choose([0, 0.7, 2], [2.5, -0.1, ...ODD])],
    ["top_p", () => choose([1, 0.9], [0, 1.1, ...ODD])],
    ["max_tokens", () => choose([1, 512], [0, -3, 1.5, 2 ** 60, ...ODD])],
    ["max_completion_tokens", () => choose([64], [0, ...ODD])],
    ["stop", () => choose(["</s>", ["a", "b"]], [["a", "b", "c", "d", "e"], [1], ...ODD])],
    ["n", () => choose([1], [2, ...ODD])],
    ["seed", () => choose([0, 42, -7], [1.5, ...ODD])],
    ["stream", () => choose([true, false])],
    ["stream_options", () => choose([{ include_usage: true }, { other: 1 }], [{ include_usage: 1 }, ...ODD])],
    [
      "chat_template_kwargs",
      () => choose([{ enable_thinking: false }, { x: 1 }], [{ enable_thinking: "no" }, ...ODD]),
    ],
    ["user", () => "someone"],
    ["logprobs", () => pick([true, null])],
  ];
  for (const [key, value] of fields.sort(() => next() - 0.5)) {
    if (key === "messages" ? next() < 0.98 : next() < 0.3) body[key] = value();
  }
  return next() < 0.97 ? body : pick([null, [], "text"]);
}

describe("readChatCompletionRequestFast", () => {
  it("gives exactly the schema's output whenever it answers, and never accepts what the schema refuses", () => {
    const random = seeded(20_261_201);
    let answered = 0;
    let refusedBySchema = 0;
    for (let i = 0; i < 20_000; i += 1) {
      const body = randomRequest(random);
      const fast = readChatCompletionRequestFast(body);
      const schema = ZChatCompletionRequest.safeParse(body);
      if (!schema.success) refusedBySchema += 1;
      if (fast === null) continue;
      answered += 1;
      expect(schema.success, `case ${i}: ${JSON.stringify(body)}`).toBe(true);
      // Same keys in the same order, same values (JSON text compares both).
      expect(JSON.stringify(fast), `case ${i}`).toBe(JSON.stringify(schema.data));
    }
    // Both kinds of case were met many times: the comparison is not vacuous.
    expect(answered).toBeGreaterThan(1_000);
    expect(refusedBySchema).toBeGreaterThan(1_000);
  });

  it("answers the usual harness request (so the schema's cost is really skipped)", () => {
    const usual = {
      model: "qwen3",
      messages: [
        { role: "system", content: "You are a careful engineer." },
        { role: "user", content: "List the files." },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "a.txt\n" },
      ],
      tools: [
        {
          type: "function",
          function: { name: "bash", description: "Run", parameters: { type: "object" }, strict: true },
        },
      ],
      max_tokens: 512,
      temperature: 0.7,
    };
    const fast = readChatCompletionRequestFast(usual);
    expect(fast).not.toBeNull();
    expect(JSON.stringify(fast)).toBe(JSON.stringify(ZChatCompletionRequest.parse(usual)));
    expect(fast?.tools?.[0]?.function).toEqual({
      name: "bash",
      description: "Run",
      parameters: { type: "object" },
    });
  });

  it("leaves a refused request to the schema, whose error it then throws", () => {
    expect(() => parseChatCompletionRequest({ messages: [] })).toThrow(/at least one message/);
    expect(() => parseChatCompletionRequest({ messages: [{ role: "user", content: "x" }], n: 2 })).toThrow(
      /n = 1/,
    );
    expect(readChatCompletionRequestFast({ messages: [{ role: "user", content: "x" }], n: 2 })).toBeNull();
  });
});
