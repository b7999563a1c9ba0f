import { createQwen3ModelFamily } from "@raas/inference";
import { describe, expect, it } from "vitest";
import { SimulatedModel } from "../engine/simulated-model";
import { createPolicy } from "./create-policy";
import type { TPolicyConfigInput } from "./policy-config.schema";

const family = createQwen3ModelFamily();

function modelWith(policy: TPolicyConfigInput, seed = 1): SimulatedModel {
  return new SimulatedModel({
    family,
    policy: createPolicy(policy),
    seed,
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
  });
}

function prompt(userText: string, assistantTurns = 0): number[] {
  let text = `<|im_start|>system\nYou are an agent.<|im_end|>\n<|im_start|>user\n${userText}<|im_end|>\n`;
  for (let i = 0; i < assistantTurns; i += 1) {
    text +=
      "<|im_start|>assistant\nok<|im_end|>\n<|im_start|>user\n<tool_response>\nx\n</tool_response><|im_end|>\n";
  }
  return family.tokenizer.encode(`${text}<|im_start|>assistant\n`);
}

async function respond(model: SimulatedModel, ids: number[], seed: number | null = null, maxTokens = 512) {
  const outcome = await model.generate({ promptIds: ids, maxTokens, seed, stopTokenIds: [] });
  return { ...outcome, parsed: family.parseResponse(outcome.text, { knownTools: ["bash", "submit"] }) };
}

describe("scripted policy", () => {
  const model = modelWith({
    kind: "scripted",
    tasks: {
      "fix-1": {
        steps: [
          { thinking: "look around", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
          { toolCalls: [{ name: "submit", arguments: { patch: "diff" } }] },
        ],
      },
    },
  });

  it("follows the task's script turn by turn in real Qwen3 format", async () => {
    const first = await respond(model, prompt("task_id: fix-1\nFix it."));
    expect(first.outputIds.slice(0, 1)).toEqual([151_667]);
    expect(first.outputIds.at(-1)).toBe(151_645);
    expect(first.finishReason).toBe("stop");
    expect(first.parsed).toMatchObject({
      thinking: "look around",
      toolCalls: [{ name: "bash", arguments: { command: "ls" } }],
    });
    const second = await respond(model, prompt("task_id: fix-1\nFix it.", 1));
    expect(second.parsed.toolCalls).toEqual([{ name: "submit", arguments: { patch: "diff" } }]);
    const third = await respond(model, prompt("task_id: fix-1\nFix it.", 2));
    expect(third.parsed).toMatchObject({ content: "I have finished the task.", toolCalls: [] });
  });

  it("is deterministic per seed and differs across request seeds", async () => {
    const ids = prompt("task_id: other\nAnything.");
    const a = await respond(modelWith({ kind: "scripted" }, 7), ids, 1);
    const b = await respond(modelWith({ kind: "scripted" }, 7), ids, 1);
    const c = await respond(modelWith({ kind: "scripted" }, 7), ids, 2);
    expect(a.outputIds).toEqual(b.outputIds);
    expect(a.logprobs).toEqual(b.logprobs);
    expect(c.outputIds).not.toEqual(a.outputIds);
  });
});

describe("success-probability policy", () => {
  it("succeeds at about the task's probability, consistently within a trajectory", async () => {
    const model = modelWith({ kind: "success-probability", tasks: { easy: { probability: 0.8 } } });
    let successes = 0;
    for (let seed = 0; seed < 100; seed += 1) {
      const second = await respond(model, prompt("task_id: easy"), seed);
      expect(second.parsed.toolCalls[0]?.name).toBe("bash");
      const final = await respond(model, prompt("task_id: easy", 1), seed);
      const answer = final.parsed.toolCalls[0]?.arguments.answer;
      expect(["correct", "wrong"]).toContain(answer);
      if (answer === "correct") successes += 1;
    }
    expect(successes).toBeGreaterThan(65);
    expect(successes).toBeLessThan(95);
  });
});

describe("malformed output", () => {
  it("produces each malformed mode, per task, and on demand with a prompt marker", async () => {
    const model = modelWith({ kind: "malformed", mode: "invalid-json", tasks: { t2: "unknown-tool" } });
    const invalid = await respond(model, prompt("task_id: t1"));
    expect(invalid.parsed.toolCallErrors[0]?.message).toMatch(/not valid JSON/);
    const unknown = await respond(model, prompt("task_id: t2"));
    expect(unknown.parsed.toolCallErrors[0]?.message).toMatch(/no tool named "launch_rockets"/);
    const scripted = modelWith({ kind: "scripted" });
    const unclosed = await respond(scripted, prompt("task_id: t3 [simulate:unclosed-tag]"));
    expect(unclosed.parsed.toolCallErrors[0]?.message).toMatch(/never closed/);
    const overlong = await respond(scripted, prompt("task_id: t4 [simulate:overlong]"), null, 50);
    expect(overlong.outputIds).toHaveLength(50);
    expect(overlong.finishReason).toBe("length");
  });

  it("rejects an invalid policy config naming the field", () => {
    expect(() => createPolicy({ kind: "success-probability", default: { probability: 2 } })).toThrow(
      /probability/,
    );
  });
});
