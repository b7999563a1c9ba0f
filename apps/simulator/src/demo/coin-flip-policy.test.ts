import { createQwen3ModelFamily } from "@raas/inference";
import { describe, expect, it } from "vitest";
import { SimulatedModel } from "../engine/simulated-model";
import { createPolicy } from "../policies/create-policy";
import type { TTaskScript } from "../policies/policy-config.schema";
import { buildDemoPolicy, coinFlipKindOf, coinFlipPolicy } from "./coin-flip-policy";

const family = createQwen3ModelFamily();
const KNOWN_TOOLS = ["bash", "python", "editor", "submit"];

const solved: TTaskScript = { steps: [{ content: "The answer is $\\boxed{391}$." }], repeatLast: false };

function firstTurn(model: SimulatedModel, taskId: string, seed: number | null) {
  const text = `<|im_start|>user\ntask_id: ${taskId}\nSolve it.<|im_end|>\n<|im_start|>assistant\n`;
  return model
    .generate({ promptIds: family.tokenizer.encode(text), maxTokens: 2_048, seed, stopTokenIds: [] })
    .then((outcome) => family.parseResponse(outcome.text, { knownTools: KNOWN_TOOLS }));
}

const modelFor = (policy: ReturnType<typeof coinFlipPolicy>) =>
  new SimulatedModel({
    family,
    policy: createPolicy(policy),
    seed: 3,
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
  });

describe("coin-flip policy", () => {
  it("solves a task on some seeds and answers wrongly on others, the same on every replay", async () => {
    const model = modelFor(
      buildDemoPolicy({ scripts: { "math-001": solved }, sweInstances: [], probability: 0.6 }),
    );
    const answers: string[] = [];
    for (let seed = 0; seed < 200; seed += 1)
      answers.push((await firstTurn(model, "math-001", seed)).content);
    const right = answers.filter((answer) => answer.includes("391")).length;
    const wrong = answers.filter((answer) => answer.includes("-4242")).length;
    expect(right + wrong).toBe(200);
    // 0.6 of 200 draws, far from all or none (a binomial this far out has odds below 1e-6).
    expect(right).toBeGreaterThan(90);
    expect(right).toBeLessThan(150);
    expect((await firstTurn(model, "math-001", 17)).content).toBe(answers[17]);
  });

  it("keeps a script at probability 1 and never follows it at 0", async () => {
    const always = modelFor(coinFlipPolicy({ t: { success: solved, failure: solved } }, 1));
    expect((await firstTurn(always, "t", 5)).content).toContain("391");
    const never = modelFor(
      buildDemoPolicy({ scripts: { "stem-001": solved }, sweInstances: [], probability: 0 }),
    );
    expect((await firstTurn(never, "stem-001", 5)).content).toContain("-4242");
    expect(() => coinFlipPolicy({}, 1.5)).toThrow(/not in \[0, 1\]/);
  });

  it("gives code tasks a wrong program and SWE instances a wrong fix as their failure", () => {
    const policy = buildDemoPolicy({
      scripts: { "code-001": solved, "odd-task": solved },
      sweInstances: [{ instance_id: "o__r-1", repo: "o/r", patch: "diff --git a/x b/x\n" }],
      probability: 0.5,
    }) as { tasks: Record<string, { probability: number; success: TTaskScript; failure: TTaskScript }> };
    expect(policy.tasks["code-001"]?.failure.steps[0]?.toolCalls?.[0]).toMatchObject({
      name: "editor",
      arguments: { path: "solution.py", file_text: "print('not sure')\n" },
    });
    const swe = policy.tasks["o__r-1"];
    expect(JSON.stringify(swe?.success)).toContain("git apply");
    expect(JSON.stringify(swe?.failure)).toContain("README.md");
    expect(swe?.probability).toBe(0.5);
    // An id of no known kind keeps its script either way.
    expect(policy.tasks["odd-task"]?.failure).toEqual(solved);
    expect(coinFlipKindOf("math-007")).toBe("math");
    expect(coinFlipKindOf("django__django-1")).toBeNull();
  });
});
