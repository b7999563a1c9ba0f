import { readFile } from "node:fs/promises";
import { formatIssues } from "@raas/shared";
import { z } from "zod";

const ZEnv = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected a variable name"), z.string());

/**
 * How to set up and test one repository (or one version of it), like SWE-bench's per-repo specs.
 * Every field is optional; the evaluator's defaults fill the rest.
 */
export const ZSweRepoSpec = z
  .object({
    /** Test framework; default: guessed from the test names (`a.py::b` pytest, `t (m.C)` unittest). */
    framework: z.enum(["pytest", "unittest"]).optional(),
    /**
     * Test command before the test directives. The instance's own `test_cmd` wins over it. Default
     * `python3 -m pytest -rA -v --color=no -p no:cacheprovider` / `python3 -m unittest -v`.
     */
    testCommand: z.string().min(1).optional(),
    /**
     * Test directives appended to the test command. Default: the files (pytest) or modules
     * (unittest) of the FAIL_TO_PASS / PASS_TO_PASS tests; `[]` appends nothing.
     */
    testDirectives: z.array(z.string().min(1)).optional(),
    /** Shell commands run in the repository after checkout (INIT and EVAL), each must exit 0. */
    setupCommands: z.array(z.string().min(1)).optional(),
    /** Environment of setup commands, tests and the agent's sandbox (e.g. `PYTHONPATH=src`). */
    env: ZEnv.optional(),
    /** Extra environment of the test run only (over `env` and the deterministic defaults). */
    testEnv: ZEnv.optional(),
    /** Image (rootfs directory or SIF) of the sandboxes; wins over `imagePattern`. */
    image: z.string().min(1).optional(),
  })
  .strict();
export type TSweRepoSpec = z.infer<typeof ZSweRepoSpec>;

const SPEC_KEY = /^[\w.-]+\/[\w.-]+(@.+)?$/;

/** A specs file: `{ "owner/name": spec, "owner/name@version": spec }`. */
export const ZSweRepoSpecs = z.record(z.string(), ZSweRepoSpec).superRefine((specs, ctx) => {
  for (const key of Object.keys(specs)) {
    if (!SPEC_KEY.test(key))
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: "expected owner/name or owner/name@version as the key",
      });
  }
});

/** Validates a specs object; errors name the repository key and the field. */
export function parseSweRepoSpecs(value: unknown, source = "specs"): Record<string, TSweRepoSpec> {
  const parsed = ZSweRepoSpecs.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(`${source}: ${formatIssues(parsed.error.issues, { root: "specs" })}`);
}

/** Reads and validates a JSON specs file. */
export async function loadSweRepoSpecs(path: string): Promise<Record<string, TSweRepoSpec>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`${path}: not a readable JSON file (${(error as Error).message})`);
  }
  return parseSweRepoSpecs(value, path);
}
