import { seededRandom } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { createGptOssChatFormat } from "../../chat-format/model-chat-format";
import type { ToolCall } from "../model-family.types";
import { createGptOssModelFamily } from "./gpt-oss-model-family";
import { loadGptOssTokenizer } from "./gpt-oss-tokenizer";

/** Room for a loaded CI machine; no test asserts on time. */
const HEAVY_TEST_TIMEOUT_MS = 120_000;
const CONVERSATIONS = 200;

const tokenizer = loadGptOssTokenizer();
const family = createGptOssModelFamily({ tokenizer });
const format = createGptOssChatFormat(family);
const specialIds = new Set(tokenizer.addedTokens?.map((token) => token.id));
const turnEndIds = new Set(family.turnEndIds);
const TOOL_NAMES = ["bash", "read_file", "web_search"];
const tools = TOOL_NAMES.map((name) => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: "object", properties: { input: { type: "string" } } },
}));

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** Words, unicode, code and JSON punctuation; never a harmony marker, trimmed as the parser trims. */
function randomText(random: Random, maxWords: number): string {
  const words = [
    "the",
    "x",
    "Zürich",
    "東京",
    "🌦️",
    "{a: 1}",
    '"quoted"',
    "back\\slash",
    "line\nbreak",
    "  ",
    "42",
    "<tag>",
  ];
  const count = 1 + Math.floor(random() * maxWords);
  return Array.from({ length: count }, () => pick(random, words))
    .join(" ")
    .trim();
}

function randomArguments(random: Random): Record<string, unknown> {
  const args: Record<string, unknown> = { input: randomText(random, 6) };
  if (random() < 0.5) args.count = Math.floor(random() * 1_000);
  if (random() < 0.3) args.flags = [random() < 0.5, null, randomText(random, 2)];
  if (random() < 0.2) args.nested = { depth: { value: 1.5, text: randomText(random, 3) } };
  return args;
}

type TurnPlan =
  | { kind: "call"; thinking: string | null; content: string; call: ToolCall }
  | { kind: "bad-call"; thinking: string | null; name: string }
  | { kind: "final"; thinking: string | null; content: string };

function planTurn(random: Random): TurnPlan {
  const thinking = random() < 0.8 ? randomText(random, 20) : null;
  const roll = random();
  if (roll < 0.5) {
    const content = random() < 0.3 ? randomText(random, 8) : "";
    return {
      kind: "call",
      thinking,
      content,
      call: { name: pick(random, TOOL_NAMES), arguments: randomArguments(random) },
    };
  }
  if (roll < 0.65) return { kind: "bad-call", thinking, name: pick(random, TOOL_NAMES) };
  return { kind: "final", thinking, content: randomText(random, 15) };
}

/** What the model would emit for a plan; a bad call has arguments cut off inside the JSON. */
function renderTurn(plan: TurnPlan): string {
  switch (plan.kind) {
    case "call":
      return family.renderAssistant({
        thinking: plan.thinking,
        content: plan.content,
        toolCalls: [plan.call],
      });
    case "bad-call": {
      const text = family.renderAssistant({
        thinking: plan.thinking,
        toolCalls: [{ name: plan.name, arguments: {} }],
      });
      return text.replace(/\{\}<\|call\|>$/, '{"input": <|call|>');
    }
    case "final":
      return family.renderAssistant({ thinking: plan.thinking, content: plan.content });
  }
}

/** A sampler: the rendered ids up to the first stop id, or cut at `maxTokens`. */
function sample(text: string, random: Random): { ids: number[]; isCut: boolean } {
  const ids = tokenizer.encode(text);
  const stopAt = ids.findIndex((id) => family.stopTokenIds.includes(id));
  const full = stopAt === -1 ? ids : ids.slice(0, stopAt + 1);
  if (random() < 0.2 && full.length > 1) {
    return { ids: full.slice(0, 1 + Math.floor(random() * (full.length - 1))), isCut: true };
  }
  return { ids: full, isCut: false };
}

/** The observations the agent loop would send back after a turn. */
function observe(plan: TurnPlan, isCut: boolean, random: Random) {
  if (isCut) return [{ role: "user" as const, content: "You ran out of tokens; be brief." }];
  switch (plan.kind) {
    case "call": {
      const content =
        random() < 0.25 ? `Error: exit code 1\n${randomText(random, 5)}` : randomText(random, 12);
      return [{ role: "tool" as const, content, toolName: plan.call.name }];
    }
    case "bad-call": {
      const errors = family.parseResponse(renderTurn(plan)).toolCallErrors;
      return [{ role: "tool" as const, content: family.formatToolCallErrors(errors) }];
    }
    case "final":
      return [{ role: "user" as const, content: randomText(random, 6) }];
  }
}

function expectRoundTrip(plan: TurnPlan, responseIds: readonly number[]): void {
  const parsed = format.parseResponse(responseIds);
  expect(parsed.thinking).toBe(plan.thinking);
  switch (plan.kind) {
    case "call":
      expect(parsed).toMatchObject({ content: plan.content, toolCalls: [plan.call], callErrors: [] });
      break;
    case "bad-call":
      expect(parsed.toolCalls).toEqual([]);
      expect(parsed.callErrors).toHaveLength(1);
      expect(parsed.callErrors[0]?.message).toMatch(
        new RegExp(`^Tool call 1: the arguments of ${plan.name} are not valid JSON`),
      );
      break;
    case "final":
      expect(parsed).toMatchObject({ content: plan.content, toolCalls: [], callErrors: [] });
      break;
  }
}

function runConversation(seed: number): { turns: number; cuts: number } {
  const random = seededRandom(seed);
  let prompt = format.renderInitialPrompt({
    systemPrompt: randomText(random, 10),
    tools,
    userMessage: randomText(random, 10),
  });
  let cuts = 0;
  const maxTurns = 1 + Math.floor(random() * 5);
  let turn = 0;
  for (; turn < maxTurns; turn += 1) {
    const plan = planTurn(random);
    const { ids: responseIds, isCut } = sample(renderTurn(plan), random);
    if (isCut) cuts += 1;
    const parsed = format.parseResponse(responseIds);
    if (isCut) expect(parsed.toolCalls).toEqual([]);
    else expectRoundTrip(plan, responseIds);
    if (plan.kind === "final" && !isCut && random() < 0.4) break;
    const added = format.renderObservations({ responseIds, observations: observe(plan, isCut, random) });
    const next = [...prompt, ...responseIds, ...added];
    // Token-in/token-out: the next prompt extends the previous one and the sampled ids unchanged.
    expect(next.slice(0, prompt.length + responseIds.length)).toEqual([...prompt, ...responseIds]);
    // Closed exactly when the response did not end its turn; the next assistant header opens it.
    const addedText = format.decode(added);
    expect(addedText.startsWith("<|end|>")).toBe(!turnEndIds.has(responseIds.at(-1) ?? -1));
    expect(addedText.endsWith("<|start|>assistant")).toBe(true);
    expect(specialIds.has(added[0] ?? -1)).toBe(true);
    prompt = next;
  }
  if (cuts === 0) {
    // No drift: the ids equal a fresh tokenization of the whole conversation's text.
    expect(tokenizer.encode(tokenizer.decode(prompt))).toEqual(prompt);
  }
  return { turns: turn, cuts };
}

describe("gpt-oss multi-turn conversations, token-in/token-out", () => {
  it(
    `keeps every prompt a prefix of the next and round-trips each turn over ${CONVERSATIONS} conversations`,
    () => {
      let turns = 0;
      let cuts = 0;
      for (let seed = 1; seed <= CONVERSATIONS; seed += 1) {
        try {
          const outcome = runConversation(seed);
          turns += outcome.turns;
          cuts += outcome.cuts;
        } catch (error) {
          throw new Error(`conversation seed ${seed}: ${String(error)}`);
        }
      }
      // The generator reached every case it is meant to cover.
      expect(turns).toBeGreaterThan(CONVERSATIONS);
      expect(cuts).toBeGreaterThan(CONVERSATIONS / 10);
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it("round-trips rendered turns with several calls, preambles and empty parts", () => {
    const random = seededRandom(99);
    for (let i = 0; i < 200; i += 1) {
      const thinking = random() < 0.5 ? randomText(random, 10) : null;
      const toolCalls = Array.from({ length: Math.floor(random() * 4) }, () => ({
        name: pick(random, TOOL_NAMES),
        arguments: randomArguments(random),
      }));
      const content = random() < 0.3 ? "" : randomText(random, 10);
      const parsed = family.parseResponse(family.renderAssistant({ thinking, content, toolCalls }));
      expect(parsed).toEqual({ thinking, content, toolCalls, toolCallErrors: [] });
    }
  });
});
