import { formatIssues } from "@raas/shared";
import { z } from "zod";

/** A test list that may arrive as an array or as a JSON-encoded string (SWE-bench's published form). */
const ZTestList = z.preprocess(
  (value, ctx) => {
    if (value === undefined || value === null || value === "") return [];
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "expected a list of test names or a JSON-encoded list" });
      return z.NEVER;
    }
  },
  z.array(z.string().min(1)),
);

const testList = (description: string) => ZTestList.describe(description);

/**
 * One SWE-bench / SWE-Gym task instance. Unknown fields are kept (datasets add their own), the
 * test lists are normalized to arrays.
 */
export const ZSweInstance = z
  .looseObject({
    instance_id: z.string().min(1).max(300).describe("The instance id, e.g. `astropy__astropy-12907`."),
    repo: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, "expected owner/name")
      .describe("`owner/name`; also the key of the repository's bundle or mirror."),
    base_commit: z
      .string()
      .regex(/^[0-9a-f]{40}$/, "expected a full 40-character commit hash")
      .describe("Full 40-hex commit the repository is checked out at."),
    patch: z.string().default("").describe("Gold patch (never shown to the agent)."),
    test_patch: z.string().default("").describe("Patch adding the tests, applied before grading."),
    problem_statement: z.string().min(1).describe("The issue text shown to the agent."),
    hints_text: z
      .string()
      .nullish()
      .transform((value) => value ?? "")
      .describe("Hints from the issue discussion (not shown by default)."),
    created_at: z.string().nullish().describe("When the instance was created (dataset metadata)."),
    version: z
      .union([z.string(), z.number()])
      .nullish()
      .transform((value) => (value == null ? null : String(value)))
      .describe("The repository version, selects `owner/name@version` specs."),
    FAIL_TO_PASS: testList("Tests that must go from failing to passing (a list or a JSON-encoded list)."),
    PASS_TO_PASS: testList("Tests that must keep passing (a list or a JSON-encoded list)."),
    environment_setup_commit: z
      .string()
      .nullish()
      .describe("Commit the environment was built from (metadata)."),
  })
  .describe("A SWE-bench / SWE-Gym instance as published (a JSONL line); unknown fields are kept.");
export type TSweInstance = z.output<typeof ZSweInstance>;

/** Validates one instance; throws an `Error` naming the bad fields. */
export function parseSweInstance(value: unknown): TSweInstance {
  const parsed = ZSweInstance.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(formatIssues(parsed.error.issues, { root: "instance" }));
}

/** Parses SWE-bench JSONL (one instance per line, blank lines skipped); errors name the line. */
export function parseSweJsonl(text: string, source = "dataset"): TSweInstance[] {
  const instances: TSweInstance[] = [];
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new Error(`${source}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
    try {
      instances.push(parseSweInstance(value));
    } catch (error) {
      throw new Error(`${source}:${index + 1}: ${(error as Error).message}`);
    }
  }
  return instances;
}
