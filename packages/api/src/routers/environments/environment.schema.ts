import { z } from "zod";

/** An environment's name: letters, digits and `_ . -`, at most 100 characters (it appears in URLs). */
export const ZEnvironmentName = z
  .string({ error: "expected an environment name (string)" })
  .trim()
  .regex(/^[A-Za-z0-9][\w.-]{0,99}$/, {
    error: "an environment name is 1-100 letters, digits or _ . - and starts with a letter or digit",
  })
  .describe("An environment name: 1-100 letters, digits or `_ . -`, starting with a letter or digit.");

/** One task's row of an oracle check. */
const ZOracleCheckRow = z
  .object({
    task: z.string().min(1).max(500).describe("The task's id within the environment."),
    oracleReward: z
      .number()
      .nullable()
      .describe("The reference solution's reward; null when it earned none."),
    noopReward: z.number().nullable().describe("Doing nothing's reward; null when it earned none."),
    verdict: z.enum(["pass", "fail", "skipped"]).describe("pass, fail or skipped."),
    reasons: z
      .array(z.string().max(4_000))
      .max(10)
      .describe("Why the verdict is not `pass`; empty when it is."),
    seconds: z.number().min(0).describe("Wall time of the task's two jobs, in seconds."),
  })
  .strict()
  .meta({ id: "OracleCheckRow", description: "One task of an oracle check." });

/** The last oracle check of an environment. */
export const ZOracleCheck = z
  .object({
    checkedAtMs: z.number().describe("When the check ended, ms since the Unix epoch."),
    passed: z.number().int().min(0).describe("Tasks whose oracle earned full reward and no-op none."),
    failed: z.number().int().min(0).describe("Tasks that failed the check."),
    skipped: z.number().int().min(0).describe("Tasks without a reference solution, or that need an image."),
    rows: z.array(ZOracleCheckRow).max(100_000).describe("One row per task."),
  })
  .meta({ id: "OracleCheck", description: "An environment's oracle check (`raas env verify`)." });

export const ZEnvironmentView = z
  .object({
    name: z.string().describe("The name training steps and benchmark runs reference."),
    kind: z.string().describe("The handler kind of its tasks: `harbor`, `reward-fn` or `judge`."),
    path: z.string().describe("The directory on the server it is read from."),
    description: z.string().nullable().describe("Its description, or null."),
    taskCount: z.number().int().describe("Tasks it held when registered."),
    oracle: ZOracleCheck.nullable().describe("Its last oracle check; null until one is recorded."),
    createdAtMs: z.number().describe("When it was first registered, ms since the Unix epoch."),
    updatedAtMs: z.number().describe("Its last registration or oracle check, ms since the Unix epoch."),
  })
  .meta({ id: "Environment", description: "An environment registered with the service." });

export const ZEnvironmentNameRequest = z
  .object({ name: ZEnvironmentName })
  .strict()
  .meta({ description: "The environment to read or change." });

export const ZEnvironmentResponse = z
  .object({ environment: ZEnvironmentView })
  .meta({ description: "The environment." });
