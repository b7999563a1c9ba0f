import { z } from "zod";

const ZExpectation = z.enum(["passed", "failed", "error"]);

/** The canary part of a grader's report (see `CanaryCheck`). */
export const ZCanaryCheck = z
  .object({
    planted: z.number().int().describe("Canary tests planted beside the graded tests in this run."),
    hosts: z.array(z.string()).describe("The test files or modules they were planted in."),
    unreached: z
      .array(z.string())
      .describe(
        "Hosts whose tests never ran (import or collection error, a module-wide skip or broken fixture): their canaries prove nothing.",
      ),
    lies: z
      .array(
        z.object({
          canary: z.string().describe("The canary test's name as the run reports it."),
          expected: ZExpectation.describe("Its true outcome."),
          reported: z
            .enum(["passed", "failed", "error", "skipped", "xfail", "xpass"])
            .nullable()
            .describe("What the run reported; null when it was missing from a run that reached its module."),
        }),
      )
      .describe("Canaries reported with a false outcome; any makes the grade void (`tampered`)."),
  })
  .describe(
    "Tests whose outcome the grader knows, planted under unpredictable names among the graded tests and run in the same process; the policy's code runs in that process, so a canary that lies voids the grade.",
  );
