import type { THarnessScript, TPolicyConfigInput } from "../policies/policy-config.schema";
import { repoDir, type SweScriptInstance } from "./swe-policy-scripts";

/** Where the fix is written before `git apply`: inside the repository, where every CLI may write. */
const PATCH_FILE = ".raas-fix.patch";

/**
 * Solves an instance through a real harness's own tools: look at the repository (shell), write the
 * gold patch to a file (the harness's write tool, or a heredoc where it has none), apply it and
 * remove the file (shell), then answer with no call so the harness's loop ends.
 */
function harnessPatchScript(instance: SweScriptInstance): THarnessScript {
  const dir = repoDir(instance.repo);
  return {
    steps: [
      { thinking: "Let me look at the repository first.", shell: `cd ${dir} && git status --short && ls` },
      {
        thinking: "I found the bug; writing the fix as a patch.",
        writeFile: { path: `${dir}/${PATCH_FILE}`, content: instance.patch },
      },
      { shell: `cd ${dir} && git apply ${PATCH_FILE} && rm ${PATCH_FILE} && git diff --stat` },
      { finish: "The fix is in place." },
    ],
  };
}

/** Fails an instance on purpose: a note beside the code instead of the fix. */
function harnessWrongFixScript(instance: SweScriptInstance): THarnessScript {
  const dir = repoDir(instance.repo);
  return {
    steps: [
      { shell: `cd ${dir} && ls` },
      { writeFile: { path: `${dir}/NOTES.md`, content: "See the issue tracker.\n" } },
      { finish: "Done." },
    ],
  };
}

/**
 * A `harness-agnostic` policy for a SWE dataset, for real agent CLIs: instances in `solve` get
 * the patch script, every other one a wrong fix (so a run resolves exactly `solve`).
 */
export function buildHarnessSwePolicyConfig(
  instances: readonly SweScriptInstance[],
  solve: ReadonlySet<string>,
): TPolicyConfigInput {
  const tasks: Record<string, THarnessScript> = {};
  for (const instance of instances) {
    tasks[instance.instance_id] = solve.has(instance.instance_id)
      ? harnessPatchScript(instance)
      : harnessWrongFixScript(instance);
  }
  return { kind: "harness-agnostic", tasks };
}
