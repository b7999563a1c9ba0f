import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";
import { defineAgentHandler } from "../base/define-agent-handler";
import { probePythonVersion } from "../base/python-version.probe";
import { submitToolSpec } from "../base/submit-tool";
import { gradeMathAnswer } from "./math-answer.grader";

const ZMathPayload = ZAgentTaskBase.extend({
  problem: z.string().min(1).max(100_000).describe("The problem statement (LaTeX allowed)."),
  answer: z.string().min(1).max(1_000).describe("The gold final answer, e.g. `\\frac{3}{4}`, `12`, `50\\%`."),
})
  .strict()
  .meta({ description: "A math problem with its gold final answer." });

/** The math handler's part of the job result. */
const ZMathResult = z.object({
  extracted: z
    .string()
    .nullable()
    .describe("The answer taken from the trajectory (boxed, else the submitted answer); null when none."),
  source: z.enum(["boxed", "submission", "none"]).describe("Where the answer was found."),
  isCorrect: z.boolean().describe("Whether it equals the gold answer (normalized or numerically)."),
  gold: z.string().describe("The gold answer."),
  pythonVersion: z.string().nullable().describe("Python version of the sandbox, or null when unknown."),
});
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
  resultSchema: ZMathResult,
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
