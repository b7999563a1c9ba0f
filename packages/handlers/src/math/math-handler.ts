import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";
import { defineAgentHandler } from "../base/define-agent-handler";
import { probePythonVersion } from "../base/python-version.probe";
import { submitToolSpec } from "../base/submit-tool";
import { gradeMathAnswer } from "./math-answer.grader";

export const ZMathPayload = ZAgentTaskBase.extend({
  /** The problem statement (LaTeX allowed). */
  problem: z.string().min(1).max(100_000),
  /** The gold final answer, e.g. `\frac{3}{4}`, `12`, `50\%`. */
  answer: z.string().min(1).max(1_000),
}).strict();
export type TMathPayload = z.infer<typeof ZMathPayload>;

const SYSTEM_PROMPT =
  "You are a careful mathematician. Solve the problem step by step. You may run Python with the " +
  "python tool to check computations. When you are done, write the final answer as \\boxed{...} " +
  "in your last message (or call submit with it).";

/** Math: the final answer in `\boxed{…}`, graded by normalization and numeric equivalence. */
export const createMathHandler = defineAgentHandler<TMathPayload, { pythonVersion: string | null }>({
  kind: "math",
  description: "Math word problems: final answer in \\boxed{}, python tool for computation.",
  payloadSchema: ZMathPayload,
  tools: ["python"],
  submitTool: submitToolSpec(
    "Submit your final answer and end the task.",
    "The final answer, e.g. \\boxed{3/4}.",
  ),
  limits: { maxTurns: 12 },
  setup: async ({ sandbox, signal }) => ({ pythonVersion: await probePythonVersion(sandbox, signal) }),
  systemPrompt: () => SYSTEM_PROMPT,
  userMessage: (payload) => `Task id: ${payload.taskId}\n\n${payload.problem}`,
  async evaluate({ payload, run, setup }) {
    const submitted = run.submission?.arguments.answer;
    const grade = gradeMathAnswer({
      finalText: run.finalContent,
      submitted: typeof submitted === "string" ? submitted : null,
      gold: payload.answer,
    });
    return {
      reward: grade.isCorrect ? 1 : 0,
      result: { ...grade, gold: payload.answer, pythonVersion: setup.pythonVersion },
    };
  },
});
