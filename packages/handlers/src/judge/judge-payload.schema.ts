import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";

/** How the judge is asked, as a job carries it. */
const ZJudgeSettings = z
  .object({
    rubric: z
      .string()
      .min(1)
      .max(200_000)
      .describe("The rubric the judge grades by (the environment's, then the row's own points)."),
    scale: z
      .object({
        min: z.number().finite().describe("The lowest score of the rubric. Default 0."),
        max: z.number().finite().describe("The highest score of the rubric. Default 10."),
      })
      .strict()
      .refine((scale) => scale.max > scale.min, "max must be above min")
      .default({ min: 0, max: 10 })
      .describe("The judge's score range; the reward is the score mapped linearly onto [0, 1]."),
    reference: z
      .string()
      .max(200_000)
      .nullable()
      .default(null)
      .describe("A reference answer shown to the judge; null when none."),
    maxTokens: z
      .number()
      .int()
      .min(16)
      .max(65_536)
      .default(2_048)
      .describe("Most tokens of the judge's reply. Default 2_048."),
    temperature: z.number().min(0).max(2).default(0).describe("The judge's sampling temperature. Default 0."),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(3_600_000)
      .default(120_000)
      .describe("How long the judge call may take (failovers included), in ms. Default 120_000."),
  })
  .strict();

export const ZJudgePayload = ZAgentTaskBase.extend({
  environment: z.string().min(1).max(200).describe("The environment's name."),
  prompt: z.string().min(1).max(1_000_000).describe("The task: the user message the policy answers."),
  systemPrompt: z
    .string()
    .max(100_000)
    .optional()
    .describe("The policy's system prompt (the environment's). Default: a generic one."),
  judge: ZJudgeSettings.describe("The rubric and how the judge is asked."),
})
  .strict()
  .meta({ description: "An open-ended task graded by a judge model against a rubric." });
export type TJudgePayload = z.infer<typeof ZJudgePayload>;
