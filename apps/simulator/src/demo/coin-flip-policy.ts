import { assertNever } from "@raas/shared";
import type { TPolicyConfigInput, TTaskScript } from "../policies/policy-config.schema";
import { type SweScriptInstance, swePatchScript, sweWrongFixScript } from "../swe/swe-policy-scripts";

/** A task's two outcomes: its scripted solution and a wrong attempt. */
export interface CoinFlipTask {
  success: TTaskScript;
  failure: TTaskScript;
}

/** The shipped task kinds with a wrong attempt of their own (a task id's prefix names its kind). */
const COIN_FLIP_KINDS = ["math", "code", "stem"] as const;
export type TCoinFlipKind = (typeof COIN_FLIP_KINDS)[number];

/**
 * A wrong attempt at a task of `kind` that still ends the way an agent would (an answer or a
 * submitted program), so it is graded reward 0 rather than failing: a boxed number no shipped
 * math or multiple-choice task has as its answer, or a program that prints the wrong thing.
 */
function wrongAttemptScript(kind: TCoinFlipKind): TTaskScript {
  switch (kind) {
    case "math":
    case "stem":
      return {
        steps: [{ thinking: "I will guess.", content: "The answer is $\\boxed{-4242}$." }],
        repeatLast: false,
      };
    case "code":
      return {
        steps: [
          {
            thinking: "A quick attempt.",
            toolCalls: [
              {
                name: "editor",
                arguments: { command: "create", path: "solution.py", file_text: "print('not sure')\n" },
              },
            ],
          },
          { content: "The solution is written.", toolCalls: [{ name: "submit", arguments: {} }] },
        ],
        repeatLast: false,
      };
    default:
      return assertNever(kind, "task kind");
  }
}

/** The kind a shipped task id names (`math-007` → math), or null for any other id. */
export function coinFlipKindOf(taskId: string): TCoinFlipKind | null {
  const prefix = taskId.split("-")[0];
  return (COIN_FLIP_KINDS as readonly string[]).includes(prefix ?? "") ? (prefix as TCoinFlipKind) : null;
}

/**
 * A `success-probability` policy over `tasks`: each trajectory draws once from its own random
 * stream (simulator seed, request seed or a fresh draw when it has none, task) and follows its
 * task's success script with `probability`, else the failure script. Members of a group (with
 * different sampling seeds, or none) so disagree now and then, which gives a training run
 * informative groups and rewards that vary.
 */
export function coinFlipPolicy(tasks: Record<string, CoinFlipTask>, probability: number): TPolicyConfigInput {
  if (!(probability >= 0 && probability <= 1)) throw new Error(`probability ${probability} is not in [0, 1]`);
  return {
    kind: "success-probability",
    tasks: Object.fromEntries(
      Object.entries(tasks).map(([taskId, task]) => [taskId, { probability, ...task }]),
    ),
  };
}

export interface DemoPolicyInput {
  /** Scripted solutions of the shipped math/code/stem tasks (`math-code-stem.policy.json`'s `tasks`). */
  scripts: Record<string, TTaskScript>;
  /** SWE instances: solved with their gold patch, failed with a wrong fix. */
  sweInstances: readonly SweScriptInstance[];
  /** Chance that a trajectory follows its task's script, 0..1. */
  probability: number;
}

/**
 * The policy `npm start`'s simulator runs: every shipped task follows its script with
 * `probability` and makes a wrong attempt otherwise. A task whose script fails on purpose fails
 * either way. Ids of no known kind keep their script as both outcomes.
 */
export function buildDemoPolicy(input: DemoPolicyInput): TPolicyConfigInput {
  const tasks: Record<string, CoinFlipTask> = {};
  for (const [taskId, script] of Object.entries(input.scripts)) {
    const kind = coinFlipKindOf(taskId);
    tasks[taskId] = { success: script, failure: kind ? wrongAttemptScript(kind) : script };
  }
  for (const instance of input.sweInstances) {
    tasks[instance.instance_id] = {
      success: swePatchScript(instance),
      failure: sweWrongFixScript(instance),
    };
  }
  return coinFlipPolicy(tasks, input.probability);
}
