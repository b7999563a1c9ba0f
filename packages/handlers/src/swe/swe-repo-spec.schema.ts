import { readFile } from "node:fs/promises";
import { formatIssues } from "@raas/shared";
import { z } from "zod";

const ZEnv = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected a variable name"), z.string());
const env = (description: string) => ZEnv.optional().describe(description);

/**
 * How to set up and test one repository (or one version of it), like SWE-bench's per-repo specs.
 * Every field is optional; the evaluator's defaults fill the rest.
 */
export const ZSweRepoSpec = z
  .object({
    framework: z
      .enum(["pytest", "unittest"])
      .optional()
      .describe(
        "Test framework; default: guessed from the test names (`a.py::b` pytest, `t (m.C)` unittest).",
      ),
    testCommand: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Test command before the test directives; the instance's own `test_cmd` wins over it. Default `python3 -m pytest -rA -v --color=no -p no:cacheprovider` / `python3 -m unittest -v`.",
      ),
    testDirectives: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "Test directives appended to the test command. Default: the files (pytest) or modules (unittest) of the listed tests; `[]` appends nothing.",
      ),
    setupCommands: z
      .array(z.string().min(1))
      .optional()
      .describe("Shell commands run in the repository after checkout (INIT and EVAL); each must exit 0."),
    env: env("Environment of setup commands, tests and the agent's sandbox (e.g. `PYTHONPATH=src`)."),
    testEnv: env("Extra environment of the test run only (over `env` and the deterministic defaults)."),
    pytestPlugins: z
      .array(z.string().regex(/^[\w.:-]+$/, "a plugin module or entry-point name"))
      .optional()
      .describe(
        "pytest plugins the test run loads (`-p name` each). Plugin autoloading is off in every test run (the grader owns its configuration, so a plugin the model's patch installs never loads); name here what the instance really needs, e.g. `xdist`, `pytest_asyncio`.",
      ),
    writableRepository: z
      .boolean()
      .optional()
      .describe(
        "Let the test run write into the repository. Default false: the workspace is read-only while the tests run, so code under test cannot rewrite the graded tests or the grader's canaries (temporary files go to /tmp).",
      ),
    image: z
      .string()
      .min(1)
      // Resolved on the host that starts the sandbox (perhaps a worker): only the form is known at submit.
      .startsWith("/", { error: "expected an absolute path on the sandbox hosts" })
      .optional()
      .describe(
        "Image of the sandboxes, an absolute path: a rootfs directory, an OCI layout (`path[:tag]`), an OCI or docker save archive, or a SIF; wins over the server's image pattern. One that is missing or of no known format fails the job's `sandbox` stage, naming it.",
      ),
  })
  .strict();
export type TSweRepoSpec = z.infer<typeof ZSweRepoSpec>;

const SPEC_KEY = /^[\w.-]+\/[\w.-]+(@.+)?$/;

/** A specs file: `{ "owner/name": spec, "owner/name@version": spec }`. */
const ZSweRepoSpecs = z.record(z.string(), ZSweRepoSpec).superRefine((specs, ctx) => {
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
