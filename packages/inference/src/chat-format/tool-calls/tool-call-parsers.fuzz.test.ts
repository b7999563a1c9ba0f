import { describe, expect, it } from "vitest";
import { parseDeepSeekV3Response } from "./deepseek-v3-tool-call.parser";
import { parseHarmonyResponse } from "./harmony-tool-call.parser";
import { parseLlama31Response } from "./llama31-tool-call.parser";
import { type FamilyParsedResponse, type FamilyParseOptions, isPlainObject } from "./tool-call-result";

/** Room for a loaded CI machine; no test asserts on time. */
const HEAVY_TEST_TIMEOUT_MS = 60_000;

type Parser = (text: string, options?: FamilyParseOptions) => FamilyParsedResponse;

const KINDS = new Set([
  "invalid-json",
  "not-an-object",
  "missing-name",
  "unknown-tool",
  "invalid-arguments",
  "unterminated",
  "stray-marker",
  "malformed-header",
  "invalid-builtin-call",
]);

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomUnicode(random: () => number, length: number): string {
  let text = "";
  for (let i = 0; i < length; i += 1) {
    const pick = random();
    // Mostly ASCII and JSON punctuation, some BMP, astral and lone surrogates.
    if (pick < 0.5) text += '{}[]":,;\\ \n=()<>|'.charAt(Math.floor(random() * 19)) || "x";
    else if (pick < 0.8) text += String.fromCharCode(32 + Math.floor(random() * 95));
    else if (pick < 0.9) text += String.fromCharCode(0x00a0 + Math.floor(random() * 0xd000));
    else if (pick < 0.95) text += String.fromCodePoint(0x1f300 + Math.floor(random() * 0x300));
    else text += String.fromCharCode(0xd800 + Math.floor(random() * 0x800));
  }
  return text;
}

function mutate(text: string, markers: readonly string[], random: () => number): string {
  let out = text;
  const rounds = 1 + Math.floor(random() * 3);
  for (let round = 0; round < rounds; round += 1) {
    const at = Math.floor(random() * (out.length + 1));
    const op = Math.floor(random() * 5);
    if (op === 0) out = out.slice(0, at);
    else if (op === 1) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 20));
    else if (op === 2)
      out = out.slice(0, at) + markers[Math.floor(random() * markers.length)] + out.slice(at);
    else if (op === 3)
      out = out.slice(0, at) + randomUnicode(random, 1 + Math.floor(random() * 12)) + out.slice(at);
    else out = out.slice(0, at) + out.slice(Math.floor(random() * out.length)) + out.slice(at);
  }
  return out;
}

/** The contract: never throws, and every call and every error is well-formed. */
function expectWellFormed(parse: Parser, text: string, opener: string | null): FamilyParsedResponse {
  const result = parse(text, { knownTools: ["get_weather", "search", "code_interpreter", "brave_search"] });
  expect(result.thinking === null || typeof result.thinking === "string").toBe(true);
  expect(typeof result.content).toBe("string");
  for (const call of result.toolCalls) {
    expect(call.name.trim()).not.toBe("");
    expect(isPlainObject(call.arguments)).toBe(true);
  }
  let lastIndex = 0;
  for (const error of result.toolCallErrors) {
    expect(KINDS.has(error.kind)).toBe(true);
    expect(error.index).toBeGreaterThan(lastIndex);
    lastIndex = error.index;
    expect(error.message.startsWith(`Tool call ${error.index}: `)).toBe(true);
    expect(typeof error.raw).toBe("string");
  }
  if (opener !== null && text.includes(opener)) {
    expect(result.toolCalls.length + result.toolCallErrors.length).toBeGreaterThan(0);
  }
  return result;
}

const DS_CALL = (name: string, json: string) =>
  `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${json}\n\`\`\`<｜tool▁call▁end｜>`;

const FAMILIES: {
  name: string;
  parse: Parser;
  opener: string | null;
  markers: string[];
  samples: string[];
  repeatedCall: string;
}[] = [
  {
    name: "Llama 3.1",
    parse: parseLlama31Response,
    opener: "<|python_tag|>",
    markers: [
      "<|python_tag|>",
      "<|eom_id|>",
      "<|eot_id|>",
      "<function=",
      "</function>",
      ".call(",
      '{"name": ',
    ],
    samples: [
      '{"name": "get_weather", "parameters": {"location": "Paris", "unit": "C"}}<|eot_id|>',
      '<|python_tag|>brave_search.call(query="weather \\"today\\"")<|eom_id|>',
      "<|python_tag|>import math\nprint(math.pi)<|eom_id|>",
      'Sure.<|python_tag|>{"name": "search", "parameters": {"q": "x"}}; {"name": "get_weather", "parameters": {}}<|eom_id|>',
      '<function=search>{"q": "llamas"}</function><|eom_id|>',
    ],
    repeatedCall: '<function=search>{"q": "x"}</function>',
  },
  {
    name: "DeepSeek V3",
    parse: parseDeepSeekV3Response,
    opener: "<｜tool▁call▁begin｜>",
    markers: [
      "<｜tool▁calls▁begin｜>",
      "<｜tool▁call▁begin｜>",
      "<｜tool▁sep｜>",
      "<｜tool▁call▁end｜>",
      "<｜tool▁calls▁end｜>",
      "<｜end▁of▁sentence｜>",
      "```json\n",
    ],
    samples: [
      `<｜tool▁calls▁begin｜>${DS_CALL("get_weather", '{"location": "Paris"}')}<｜tool▁calls▁end｜><｜end▁of▁sentence｜>`,
      `Let me look.<｜tool▁calls▁begin｜>${DS_CALL("search", '{"q": "a"}')}\n${DS_CALL("get_weather", "{}")}<｜tool▁calls▁end｜>`,
      "Plain answer.<｜end▁of▁sentence｜>",
    ],
    repeatedCall: `${DS_CALL("search", '{"q": "x"}')}\n`,
  },
  {
    name: "gpt-oss (harmony)",
    parse: parseHarmonyResponse,
    opener: null,
    markers: [
      "<|start|>",
      "<|channel|>",
      "<|message|>",
      "<|end|>",
      "<|call|>",
      "<|return|>",
      " to=functions.",
      "<|constrain|>",
    ],
    samples: [
      '<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Paris"}<|call|>',
      "<|channel|>analysis<|message|>Easy.<|end|><|start|>assistant<|channel|>final<|message|>4<|return|>",
      '<|channel|>commentary<|message|>Plan.<|end|><|start|>assistant to=functions.search<|channel|>commentary json<|message|>{"q":"x"}<|call|>',
    ],
    repeatedCall:
      '<|start|>assistant<|channel|>commentary to=functions.search <|constrain|>json<|message|>{"q":"x"}<|call|>',
  },
];

describe.each(FAMILIES)("$name parser under fuzzing", ({ parse, opener, markers, samples, repeatedCall }) => {
  it("parses its valid samples without errors", () => {
    for (const sample of samples) expect(expectWellFormed(parse, sample, opener).toolCallErrors).toEqual([]);
  });

  it(
    "never throws on seeded truncations and mutations of valid outputs",
    () => {
      for (let seed = 1; seed <= 1_500; seed += 1) {
        const random = seededRandom(seed);
        const sample = samples[Math.floor(random() * samples.length)]!;
        const text = mutate(sample, markers, random);
        try {
          expectWellFormed(parse, text, opener);
        } catch (error) {
          throw new Error(`seed ${seed}, input ${JSON.stringify(text)}: ${String(error)}`);
        }
      }
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it(
    "never throws on random unicode, marker soup and every prefix of a valid output",
    () => {
      for (let seed = 1; seed <= 300; seed += 1) {
        const random = seededRandom(10_000 + seed);
        const soup = Array.from({ length: 30 }, () =>
          random() < 0.5 ? markers[Math.floor(random() * markers.length)]! : randomUnicode(random, 5),
        ).join("");
        expectWellFormed(parse, randomUnicode(random, 200), opener);
        expectWellFormed(parse, soup, opener);
      }
      for (const sample of samples) {
        for (let end = 0; end <= sample.length; end += 1)
          expectWellFormed(parse, sample.slice(0, end), opener);
      }
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it(
    "handles huge inputs: thousands of calls, unclosed openers and long garbage",
    () => {
      const many = parse(repeatedCall.repeat(2_000));
      expect(many.toolCalls.length + many.toolCallErrors.length).toBe(2_000);
      for (const marker of markers) expectWellFormed(parse, marker.repeat(5_000), opener);
      expectWellFormed(parse, randomUnicode(seededRandom(7), 300_000), opener);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );
});
