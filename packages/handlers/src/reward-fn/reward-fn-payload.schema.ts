import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";

/** A Python identifier: the function verify.py defines. */
const ZPythonIdentifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "a Python identifier");

/** The environment's verifier as a job carries it, so a worker on any node can run it. */
const ZRewardVerifier = z
  .object({
    source: z
      .string()
      .min(1)
      .max(1024 ** 2)
      .describe("The text of `verify.py`; it never enters the agent's sandbox."),
    function: ZPythonIdentifier.default("compute_score").describe(
      "The function called, by its parameter names: veRL's `(data_source, solution_str, ground_truth, extra_info)` or any subset. Default `compute_score`.",
    ),
    timeLimitMs: z
      .number()
      .int()
      .min(100)
      .max(3_600_000)
      .default(30_000)
      .describe(
        "Wall time of one verifier run (interpreter start, import, the call), in ms. Default 30_000.",
      ),
    exceptionMeansWrong: z
      .boolean()
      .default(false)
      .describe(
        "An exception compute_score raises on the policy's output means a wrong answer (reward 0). Default false: it is an infrastructure failure (`eval`), never reward 0.",
      ),
  })
  .strict();

type TJsonValue = string | number | boolean | null | TJsonValue[] | { [key: string]: TJsonValue };

/** Any JSON value (a ground truth, an extra_info entry), as veRL's rows carry them. */
const ZJsonValue: z.ZodType<TJsonValue> = z
  .union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(z.lazy(() => ZJsonValue)).meta({ id: "JsonArray", description: "A JSON array." }),
    z.record(
      z.string(),
      z.lazy(() => ZJsonValue),
    ),
  ])
  .meta({ id: "JsonValue", description: "Any JSON value." });

export const ZRewardFnPayload = ZAgentTaskBase.extend({
  environment: z.string().min(1).max(200).describe("The environment's name."),
  prompt: z.string().min(1).max(1_000_000).describe("The user message of the dataset row."),
  systemPrompt: z
    .string()
    .max(100_000)
    .optional()
    .describe("The system prompt (the row's, else the environment's). Default: a generic one."),
  dataSource: z
    .string()
    .min(1)
    .max(200)
    .describe("veRL's `data_source` (the environment's name unless the row says)."),
  groundTruth: ZJsonValue.describe("The row's `ground_truth`, passed to compute_score as it is."),
  extraInfo: z
    .record(z.string(), ZJsonValue)
    .nullable()
    .default(null)
    .describe("The row's `extra_info`, passed as it is (None when absent)."),
  verifier: ZRewardVerifier.describe("The environment's verify.py and how it is run."),
})
  .strict()
  .meta({ description: "A dataset row of a Python reward-function environment, with its verify.py." });
export type TRewardFnPayload = z.infer<typeof ZRewardFnPayload>;
