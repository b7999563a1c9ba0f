import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";
import { defineAgentHandler } from "../base/define-agent-handler";
import { submitToolSpec } from "../base/submit-tool";
import { CHOICE_LETTERS, gradeStemAnswer } from "./stem-answer.grader";

const ZStemPayload = ZAgentTaskBase.extend({
  question: z.string().min(1).max(100_000).describe("The question."),
  choices: z
    .array(z.string().min(1).max(10_000))
    .min(2)
    .max(10)
    .describe("The options, 2 to 10, shown as A, B, C, … in this order."),
  answer: z
    .string()
    .regex(/^[A-Ja-j]$/, "answer must be a single letter A–J")
    .describe("The correct option's letter (A–J)."),
})
  .strict()
  .meta({ description: "A multiple-choice question with its correct letter." })
  .refine((p) => CHOICE_LETTERS.indexOf(p.answer.toUpperCase()) < p.choices.length, {
    message: "answer names a choice that does not exist",
    path: ["answer"],
  });
export type TStemPayload = z.infer<typeof ZStemPayload>;

/** The stem handler's part of the job result. */
const ZStemResult = z.object({
  chosen: z.string().nullable().describe("The letter the model chose; null when none was found."),
  source: z
    .enum(["boxed", "submission", "text", "none"])
    .describe("Where the choice was found (boxed, the submit tool, an `Answer: X` line)."),
  isCorrect: z.boolean().describe("Whether it is the correct letter."),
  gold: z.string().describe("The correct letter, upper case."),
});

const SYSTEM_PROMPT =
  "You answer multiple-choice science and engineering questions. Think it through; you may run " +
  "Python with the python tool. Finish with the letter of your choice as \\boxed{X} (or call submit with it).";

/** STEM multiple choice: reward 1 when the chosen letter matches. */
export const createStemHandler = defineAgentHandler<TStemPayload>({
  kind: "stem",
  description: "STEM multiple choice: answer with the letter of one option.",
  payloadSchema: ZStemPayload,
  resultSchema: ZStemResult,
  tools: ["python"],
  submitTool: submitToolSpec("Submit the letter of your choice and end the task.", "One letter, e.g. B."),
  limits: { maxTurns: 8 },
  systemPrompt: () => SYSTEM_PROMPT,
  userMessage: (payload) =>
    `Task id: ${payload.taskId}\n\n${payload.question}\n\n` +
    payload.choices.map((choice, i) => `${CHOICE_LETTERS[i]}. ${choice}`).join("\n"),
  async evaluate({ payload, run }) {
    const submitted = run.submission?.arguments.answer;
    const grade = gradeStemAnswer({
      finalText: run.finalContent,
      submitted: typeof submitted === "string" ? submitted : null,
      gold: payload.answer,
      choiceCount: payload.choices.length,
    });
    return { reward: grade.isCorrect ? 1 : 0, result: { ...grade, gold: payload.answer.toUpperCase() } };
  },
});
