import type { TPolicyConfigInput, TTaskScript } from "../policies/policy-config.schema";

/** What a SWE script needs of an instance (a SWE-bench JSONL record). */
export interface SweScriptInstance {
  instance_id: string;
  repo: string;
  /** The gold patch (or any patch the script should apply). */
  patch: string;
}

const HEREDOC = "RAAS_SIMULATED_PATCH";

/** Where the sandbox checks an instance's repository out. */
export function repoDir(repo: string): string {
  return `/workspace/${repo.split("/").at(-1)}`;
}

/**
 * A scripted trajectory that solves an instance like an agent would: look at the repository,
 * apply the patch with `git apply` through the bash tool, run `git diff --stat`, then submit.
 */
export function swePatchScript(instance: SweScriptInstance): TTaskScript {
  if (instance.patch.split("\n").includes(HEREDOC))
    throw new Error(`patch of ${instance.instance_id} contains ${HEREDOC}`);
  const dir = repoDir(instance.repo);
  return {
    steps: [
      {
        thinking: "Let me look at the repository first.",
        toolCalls: [{ name: "bash", arguments: { command: `cd ${dir} && git status --short && ls` } }],
      },
      {
        thinking: "I found the bug; applying the fix.",
        toolCalls: [
          {
            name: "bash",
            arguments: {
              command: `cd ${dir} && git apply <<'${HEREDOC}'\n${instance.patch.replace(/\n$/, "")}\n${HEREDOC}`,
            },
          },
        ],
      },
      { toolCalls: [{ name: "bash", arguments: { command: `cd ${dir} && git diff --stat` } }] },
      { content: "The fix is in place.", toolCalls: [{ name: "submit", arguments: {} }] },
    ],
    repeatLast: false,
  };
}

/** A scripted trajectory that fails an instance: it edits the README instead of the bug, then submits. */
export function sweWrongFixScript(instance: Pick<SweScriptInstance, "repo">): TTaskScript {
  const dir = repoDir(instance.repo);
  return {
    steps: [
      { toolCalls: [{ name: "bash", arguments: { command: `cd ${dir} && ls` } }] },
      {
        toolCalls: [
          {
            name: "bash",
            arguments: { command: `cd ${dir} && printf '\\nSee the issue tracker.\\n' >> README.md` },
          },
        ],
      },
      { content: "Done.", toolCalls: [{ name: "submit", arguments: {} }] },
    ],
    repeatLast: false,
  };
}

/**
 * A scripted policy for a SWE dataset: instances in `solve` get the patch script, every other
 * one the wrong-fix script (so a run resolves exactly `solve`).
 */
export function buildSwePolicyConfig(
  instances: readonly SweScriptInstance[],
  solve: ReadonlySet<string>,
): TPolicyConfigInput {
  const tasks: Record<string, TTaskScript> = {};
  for (const instance of instances) {
    tasks[instance.instance_id] = solve.has(instance.instance_id)
      ? swePatchScript(instance)
      : sweWrongFixScript(instance);
  }
  return { kind: "scripted", tasks };
}
