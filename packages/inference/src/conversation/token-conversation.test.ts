import type { TTurn } from "@raas/shared";
import { checkTokenDrift } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { createQwen3ModelFamily } from "../model/qwen3/qwen3-model-family";
import { QWEN3_SPECIAL_IDS } from "../model/qwen3/qwen3-tokenizer";
import { TokenConversation } from "./token-conversation";

const family = createQwen3ModelFamily();
const tools = [{ name: "bash", description: "Run a command", parameters: { type: "object" } }];

function toTurns(conversation: TokenConversation): TTurn[] {
  return conversation.turns.map((turn, index) => ({
    jobId: "job-1",
    index,
    promptIds: [...turn.promptIds],
    responseIds: [...turn.responseIds],
    logprobs: turn.responseIds.map(() => -0.5),
    backendId: "sim-0",
    weightVersion: "v1",
    cachedPromptTokens: 0,
    latencyMs: 1,
    finishReason: "stop",
    text: null,
    createdAtMs: 0,
  }));
}

function buildConversation(): TokenConversation {
  const conversation = TokenConversation.start(
    family,
    [
      { role: "system", content: "You are a careful engineer." },
      { role: "user", content: "Fix the bug." },
    ],
    { tools },
  );
  // A response whose tokens differ from what re-tokenizing its text would give: " ls" split oddly.
  const odd = [...family.tokenizer.encode('<tool_call>\n{"name": "bash", "arguments": {"command": "l')];
  odd.push(...family.tokenizer.encode('s"}}\n</tool_call>'), QWEN3_SPECIAL_IDS.imEnd);
  conversation.appendResponse(
    odd,
    odd.map(() => -0.1),
  );
  conversation.appendMessages([{ role: "tool", content: "main.py" }]);
  // Cut by max tokens: no <|im_end|> at the end.
  conversation.appendResponse(family.tokenizer.encode("<think>\nstill thinking"));
  conversation.appendMessages([{ role: "user", content: "Please finish." }]);
  conversation.appendResponse(family.tokenizer.encode("Done.<|im_end|>"));
  return conversation;
}

describe("TokenConversation", () => {
  it("extends prompts by exact response ids plus newly templated tokens", () => {
    const conversation = buildConversation();
    const [first, second, third] = conversation.turns;
    expect(first!.promptIds.slice(0, 3)).toEqual([QWEN3_SPECIAL_IDS.imStart, 8_948, 198]);
    expect(second!.promptIds.slice(0, first!.promptIds.length + first!.responseIds.length)).toEqual([
      ...first!.promptIds,
      ...first!.responseIds,
    ]);
    const added = second!.promptIds.slice(first!.promptIds.length + first!.responseIds.length);
    expect(family.tokenizer.decode(added)).toBe(
      "\n<|im_start|>user\n<tool_response>\nmain.py\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
    );
    const addedAfterCut = third!.promptIds.slice(second!.promptIds.length + second!.responseIds.length);
    expect(addedAfterCut[0]).toBe(QWEN3_SPECIAL_IDS.imEnd);
    expect(checkTokenDrift(toTurns(conversation))).toEqual({
      isConsistent: true,
      turnsChecked: 3,
      violations: [],
    });
  });

  it("differs from re-tokenizing the text, which is exactly the drift it prevents", () => {
    const conversation = buildConversation();
    expect(family.tokenizer.encode(conversation.toText())).not.toEqual(conversation.promptIds);
  });

  it("rejects out-of-order use", () => {
    const conversation = TokenConversation.start(family, [{ role: "user", content: "hi" }]);
    expect(() => conversation.appendMessages([{ role: "user", content: "again" }])).toThrow(
      /needs a response/,
    );
    conversation.appendResponse([1, 2]);
    expect(() => conversation.appendResponse([3])).toThrow(/twice/);
  });
});

describe("checkTokenDrift", () => {
  it("reports a re-tokenized history with its position and cause", () => {
    const turns = toTurns(buildConversation());
    const retokenized = family.tokenizer.encode(family.tokenizer.decode(turns[1]!.promptIds));
    turns[1] = { ...turns[1]!, promptIds: retokenized };
    const report = checkTokenDrift(turns, { tokenizer: family.tokenizer });
    expect(report.isConsistent).toBe(false);
    const violation = report.violations[0];
    expect(violation).toMatchObject({ kind: "prefix-mismatch", turnIndex: 1, isRetokenization: true });
    expect(violation?.message).toMatch(/earlier turns were re-tokenized/);
  });

  it("reports missing turns, foreign jobs and logprob counts", () => {
    const turns = toTurns(buildConversation());
    const report = checkTokenDrift([turns[0]!, { ...turns[2]!, jobId: "other", logprobs: [-1] }]);
    expect(report.violations.map((v) => v.kind).sort()).toEqual([
      "job-mismatch",
      "logprob-count",
      "missing-turn",
    ]);
  });

  it("reports an edited token inside the previous response", () => {
    const turns = toTurns(buildConversation());
    const promptIds = [...turns[2]!.promptIds];
    const position = turns[1]!.promptIds.length + 1;
    promptIds[position] = 42;
    const report = checkTokenDrift([turns[0]!, turns[1]!, { ...turns[2]!, promptIds }], {
      tokenizer: family.tokenizer,
    });
    expect(report.violations).toEqual([
      expect.objectContaining({
        kind: "prefix-mismatch",
        turnIndex: 2,
        position,
        actualId: 42,
        isRetokenization: false,
      }),
    ]);
  });
});
