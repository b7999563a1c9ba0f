import { createQwen3ModelFamily } from "@raas/inference";
import { describe, expect, it } from "vitest";
import { createPolicy } from "../policies/create-policy";
import type { TPolicyConfigInput, TTaskScript } from "../policies/policy-config.schema";
import { SimulatedModel } from "./simulated-model";
import { UnseededDraws } from "./unseeded-draws";

const family = createQwen3ModelFamily();
const KNOWN_TOOLS = ["bash", "submit"];

const answer = (text: string): TTaskScript => ({ steps: [{ content: text }], repeatLast: false });
/** Two turns: a plan (a bash call), then an answer; the plan shows which script the trajectory follows. */
const planThenAnswer = (plan: string, text: string): TTaskScript => ({
  steps: [{ thinking: plan, toolCalls: [{ name: "bash", arguments: { command: "ls" } }] }, { content: text }],
  repeatLast: false,
});

function modelWith(tasks: Record<string, { success: TTaskScript; failure: TTaskScript }>, seed = 1) {
  const policy: TPolicyConfigInput = {
    kind: "success-probability",
    tasks: Object.fromEntries(Object.entries(tasks).map(([id, task]) => [id, { probability: 0.6, ...task }])),
  };
  return new SimulatedModel({
    family,
    policy: createPolicy(policy),
    seed,
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
  });
}

const firstPrompt = (taskId: string) =>
  family.tokenizer.encode(
    `<|im_start|>system\nYou are an agent.<|im_end|>\n<|im_start|>user\ntask_id: ${taskId}\nSolve it.<|im_end|>\n<|im_start|>assistant\n`,
  );

/** The next turn's prompt as the engine builds it: the prompt, the response, a tool result appended. */
const continued = (promptIds: readonly number[], responseIds: readonly number[]) => [
  ...promptIds,
  ...responseIds,
  ...family.tokenizer.encode(
    "\n<|im_start|>user\n<tool_response>\nREADME.md\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
  ),
];

async function generate(model: SimulatedModel, promptIds: readonly number[], seed: number | null) {
  const outcome = await model.generate({ promptIds, maxTokens: 1_024, seed, stopTokenIds: [] });
  return { ...outcome, parsed: family.parseResponse(outcome.text, { knownTools: KNOWN_TOOLS }) };
}

describe("requests without a seed sample afresh, as a real engine does", () => {
  it("answers the same unseeded prompt differently across 20 requests; a seed replays exactly", async () => {
    const model = modelWith({ t: { success: answer("The answer is 42."), failure: answer("It is 7.") } });
    const prompt = firstPrompt("t");
    const unseeded: string[] = [];
    for (let i = 0; i < 20; i += 1) unseeded.push((await generate(model, prompt, null)).text);
    expect(new Set(unseeded).size).toBeGreaterThan(1);
    expect(unseeded).toContain("The answer is 42.");
    expect(unseeded).toContain("It is 7.");

    // Same seed + same prompt = same sample: on this model (after the unseeded draws) and on a new one.
    const seeded = await generate(model, prompt, 11);
    const again = await generate(model, prompt, 11);
    const elsewhere = await generate(
      modelWith({ t: { success: answer("The answer is 42."), failure: answer("It is 7.") } }),
      prompt,
      11,
    );
    for (const other of [again, elsewhere]) {
      expect(other.outputIds).toEqual(seeded.outputIds);
      expect(other.logprobs).toEqual(seeded.logprobs);
    }
  });

  it("keeps a trajectory's draw on its later turns", async () => {
    const model = modelWith({
      t: { success: planThenAnswer("Plan A.", "correct"), failure: planThenAnswer("Plan B.", "wrong") },
    });
    const outcomes = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const prompt = firstPrompt("t");
      const first = await generate(model, prompt, null);
      const second = await generate(model, continued(prompt, first.outputIds), null);
      const plan = first.parsed.thinking;
      expect(plan === "Plan A." ? "correct" : "wrong").toBe(second.parsed.content);
      outcomes.add(second.parsed.content);
    }
    expect([...outcomes].sort()).toEqual(["correct", "wrong"]);
  });

  it("replays the same unseeded requests in the same order from a simulator of the same seed", async () => {
    const tasks = {
      t: { success: planThenAnswer("Plan A.", "correct"), failure: planThenAnswer("Plan B.", "wrong") },
    };
    const run = async (model: SimulatedModel) => {
      const texts: string[] = [];
      for (let i = 0; i < 8; i += 1) texts.push((await generate(model, firstPrompt("t"), null)).text);
      return texts;
    };
    expect(await run(modelWith(tasks, 4))).toEqual(await run(modelWith(tasks, 4)));
  });
});

describe("UnseededDraws", () => {
  const END = 9;

  it("continues the draw that wrote a conversation, and forgets the least recently used", () => {
    const draws = new UnseededDraws({ seed: 0, turnEndIds: [END], capacity: 2 });
    const a = draws.drawFor([1, 2]);
    const b = draws.drawFor([1, 2]);
    expect(a).not.toBe(b);
    draws.remember([1, 2], [3, END], a);
    draws.remember([1, 2], [4, END], b);
    expect(draws.drawFor([1, 2, 3, END, 5, 6])).toBe(a);
    expect(draws.drawFor([1, 2, 4, END, 5, 6])).toBe(b);
    // A response cut short (no end of turn) is not remembered: its continuation is a new trajectory.
    draws.remember([1, 2], [7], a);
    expect(draws.drawFor([1, 2, 7, 5])).not.toBe(a);
    draws.remember([5], [6, END], a);
    expect(draws.drawFor([1, 2, 3, END, 5])).not.toBe(a);
  });
});
