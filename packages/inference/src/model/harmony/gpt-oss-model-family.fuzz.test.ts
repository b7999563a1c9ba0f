import { seededRandom } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { createGptOssChatFormat } from "../../chat-format/model-chat-format";
import type { ParsedResponse } from "../model-family.types";
import { createGptOssModelFamily } from "./gpt-oss-model-family";
import { loadGptOssTokenizer } from "./gpt-oss-tokenizer";

/** Room for a loaded CI machine; no test asserts on time. */
const HEAVY_TEST_TIMEOUT_MS = 120_000;

const tokenizer = loadGptOssTokenizer();
const family = createGptOssModelFamily({ tokenizer });
const format = createGptOssChatFormat(family);
const specialIds = tokenizer.addedTokens?.map((token) => token.id) ?? [];
const knownTools = ["get_weather", "search"];

const samples = [
  family.renderAssistant({
    thinking: "Need the weather.",
    toolCalls: [{ name: "get_weather", arguments: { location: "Paris", days: [1, 2] } }],
  }),
  family.renderAssistant({ thinking: "Simple.", content: "2 + 2 = 4." }),
  family.renderAssistant({
    content: "Checking two things.",
    toolCalls: [
      { name: "search", arguments: { q: "東京 🌦️" } },
      { name: "get_weather", arguments: {} },
    ],
  }),
];

/** The parse contract: calls have a name and object arguments; errors are numbered in order. */
function expectWellFormed(parsed: ParsedResponse): void {
  expect(parsed.thinking === null || typeof parsed.thinking === "string").toBe(true);
  expect(typeof parsed.content).toBe("string");
  for (const call of parsed.toolCalls) {
    expect(knownTools).toContain(call.name);
    expect(
      typeof call.arguments === "object" && call.arguments !== null && !Array.isArray(call.arguments),
    ).toBe(true);
  }
  let lastIndex = 0;
  for (const error of parsed.toolCallErrors) {
    expect(error.index).toBeGreaterThan(lastIndex);
    lastIndex = error.index;
    expect(error.message.startsWith(`Tool call ${error.index}: `)).toBe(true);
  }
}

/** Token-level damage a sampler could produce: cuts, dropped, repeated, stray special and random ids. */
function mutate(ids: readonly number[], random: () => number): number[] {
  let out = [...ids];
  const rounds = 1 + Math.floor(random() * 4);
  for (let round = 0; round < rounds; round += 1) {
    const at = Math.floor(random() * (out.length + 1));
    const op = Math.floor(random() * 5);
    if (op === 0) out = out.slice(0, at);
    else if (op === 1) out.splice(at, 1 + Math.floor(random() * 8));
    else if (op === 2) out.splice(at, 0, specialIds[Math.floor(random() * specialIds.length)] as number);
    else if (op === 3) out.splice(at, 0, Math.floor(random() * 199_998));
    else out.splice(at, 0, ...out.slice(Math.floor(random() * out.length)).slice(0, 12));
  }
  return out;
}

describe("gpt-oss family parsing under fuzzing", () => {
  it("reads its own samples without errors", () => {
    for (const sample of samples) {
      const parsed = family.parseResponse(sample, { knownTools });
      expectWellFormed(parsed);
      expect(parsed.toolCallErrors).toEqual([]);
    }
  });

  it(
    "never throws on token-level mutations, every prefix, and random ids",
    () => {
      const encoded = samples.map((sample) => tokenizer.encode(sample));
      for (let seed = 1; seed <= 2_000; seed += 1) {
        const random = seededRandom(seed);
        const ids = mutate(encoded[Math.floor(random() * encoded.length)] ?? [], random);
        const text = tokenizer.decode(ids);
        try {
          const parsed = family.parseResponse(text, { knownTools });
          expectWellFormed(parsed);
          // The engine's port reads the same calls from the ids.
          expect(format.parseResponse(ids).toolCalls).toEqual(family.parseResponse(text).toolCalls);
        } catch (error) {
          throw new Error(`seed ${seed}, ids ${JSON.stringify(ids)}: ${String(error)}`);
        }
      }
      for (const ids of encoded) {
        for (let end = 0; end <= ids.length; end += 1) {
          expectWellFormed(family.parseResponse(tokenizer.decode(ids.slice(0, end)), { knownTools }));
        }
      }
      const random = seededRandom(7);
      for (let i = 0; i < 100; i += 1) {
        const ids = Array.from({ length: 200 }, () =>
          random() < 0.3
            ? (specialIds[Math.floor(random() * specialIds.length)] as number)
            : Math.floor(random() * 199_998),
        );
        expectWellFormed(family.parseResponse(tokenizer.decode(ids), { knownTools }));
      }
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it("reads a cut call as an error, never as a call", () => {
    const ids = tokenizer.encode(samples[0] ?? "");
    const callAt = ids.lastIndexOf(tokenizer.encode("<|message|>")[0] ?? -1);
    for (let end = callAt + 1; end < ids.length; end += 1) {
      const parsed = family.parseResponse(tokenizer.decode(ids.slice(0, end)), { knownTools });
      expect(parsed.toolCalls).toEqual([]);
      expect(parsed.toolCallErrors).toHaveLength(1);
    }
  });
});
