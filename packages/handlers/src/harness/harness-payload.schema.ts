import type { AnyTaskHandler } from "@raas/engine";
import { z } from "zod";
import { ZAgentOverrides } from "../base/agent-payload.schema";
import { HARNESS_RECIPE_NAMES } from "./recipes/harness-recipes";

/** The kind whose payload a `task` without `kind` is (the first shape, when harness jobs were swe-only). */
export const LEGACY_TASK_KIND = "swe";

/** Fields of a task payload that belong to the built-in loop or to no agent at all. */
const REFUSED_TASK_FIELDS: Record<string, string> = {
  // Tool servers are offered by the built-in loop; a harness brings its own tools and would
  // silently run without them.
  mcp: "a harness job runs its own agent: `mcp` (tool servers for the built-in loop) is not supported",
  modelPatch: "a harness job runs its harness: give no modelPatch (grade a given patch with a swe job)",
};

/** A harness job's task as the stages use it: the kind whose INIT and EVAL run, and its payload. */
interface HarnessTask {
  kind: string;
  /** The payload as sent; the kind's own handler parses it. */
  payload: unknown;
}

/**
 * The payload of a `harness` job over `targets` (the kinds whose agent a harness may play). The
 * task is validated by its kind's own payload schema; its issues keep their full path
 * (`payload.task.payload.problem: …`).
 */
export function harnessPayloadSchema(targets: readonly AnyTaskHandler[]) {
  const byKind = new Map(targets.map((target) => [target.kind, target]));
  const kinds = [...byKind.keys()];
  const hasLegacy = byKind.has(LEGACY_TASK_KIND);
  const listed = kinds.join(", ");
  return z
    .object({
      task: z
        .looseObject({
          kind: z
            .enum(kinds as [string, ...string[]], {
              error: (issue) =>
                `a harness plays the agent of these kinds only: ${listed} (given ${JSON.stringify(issue.input)})`,
            })
            .optional()
            .describe(`The task's kind: one of ${listed}. Its INIT and EVAL run as in a job of that kind.`),
          payload: z
            .record(z.string(), z.unknown())
            .optional()
            .describe(
              "The task: a payload of that kind (its `<Kind>Payload` schema), validated by the kind's own schema. Its `agent` (loop limits, sampling) does not apply: the harness runs its own loop, sampled with this job's `agent`.",
            ),
        })
        .describe(
          `The task, as \`{ kind, payload }\`: INIT and EVAL are that kind's own (its sandbox and setup, its end-of-RUN collection, its grader), RUN is the harness.${hasLegacy ? " A task without `kind` is a `swe` payload (the first form of harness jobs)." : ""}`,
        ),
      command: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe(
          "argv of the harness, run in the task's directory (a swe repository, else `/workspace`) with OPENAI_BASE_URL, OPENAI_API_KEY, RAAS_TASK_FILE (JSON: `system`, `user`, `cwd`, `answerFile`) and RAAS_ANSWER_FILE set. What it writes to RAAS_ANSWER_FILE is its final answer (the `submit` call's `answer`), else its stdout's tail is the final message. Default a shipped example (standard-library Python, bash and submit tools): `swe_agent.py` for swe, `task_agent.py` for the other kinds.",
        ),
      recipe: z
        .enum(HARNESS_RECIPE_NAMES, {
          error: (issue) =>
            `no harness recipe ${JSON.stringify(issue.input)}: the recipes are ${HARNESS_RECIPE_NAMES.join(", ")}`,
        })
        .optional()
        .describe(
          `A shipped harness CLI instead of a \`command\`: one of ${HARNESS_RECIPE_NAMES.join(", ")}, each pinned to a version, installed once per host and mounted read-only, pointed at the job's gateway in the API shape it speaks, with telemetry and updates off; the task's instruction is its prompt.`,
        ),
      files: z
        .record(z.string(), z.string())
        .default({})
        .describe(
          "Files written into the harness directory (`/workspace/.raas-harness/`, removed after the harness ran) before it starts, by name.",
        ),
      timeoutMs: z
        .number()
        .int()
        .min(1_000)
        .max(3_600_000)
        .default(600_000)
        .describe(
          "Time limit of the harness in ms (1_000 to 3_600_000). Default 600_000. A harness past it is stopped; what it left is graded (stop reason `time_budget`).",
        ),
      agent: ZAgentOverrides.optional().describe(
        "The job's sampling (`temperature`, `topP`, `topK`, `seed`; a step's `agent` lands here) and `harnessSampling`: every model call samples with these, not with what the harness sends (`override`, default) or a harness sending others is refused (`reject`). The loop limits do not apply (the harness runs its own loop).",
      ),
    })
    .strict()
    .superRefine((payload, ctx) => {
      if (payload.recipe !== undefined && payload.command !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["command"],
          message: "give a `command` or a `recipe`, not both",
        });
      }
      const task = harnessTaskOf(payload);
      const target = byKind.get(task.kind);
      if (payload.task.kind === undefined && !hasLegacy) {
        ctx.addIssue({
          code: "custom",
          path: ["task", "kind"],
          message: `required: the task's kind, one of ${listed}`,
        });
        return;
      }
      if (!target) return;
      const at = payload.task.kind === undefined ? ["task"] : ["task", "payload"];
      if (payload.task.kind !== undefined) {
        const extra = Object.keys(payload.task).filter((key) => key !== "kind" && key !== "payload");
        if (extra.length > 0)
          ctx.addIssue({
            code: "custom",
            path: ["task"],
            message: `unknown keys ${extra.map((key) => `"${key}"`).join(", ")}: a task is { kind, payload }`,
          });
      }
      const parsed = target.payloadSchema.safeParse(task.payload);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: "custom", path: [...at, ...issue.path], message: issue.message });
        return;
      }
      const fields = typeof parsed.data === "object" && parsed.data !== null ? parsed.data : {};
      for (const [field, message] of Object.entries(REFUSED_TASK_FIELDS)) {
        if ((fields as Record<string, unknown>)[field] !== undefined)
          ctx.addIssue({ code: "custom", path: [...at, field], message });
      }
    });
}
export type THarnessPayload = z.infer<ReturnType<typeof harnessPayloadSchema>>;

/** The task of a parsed harness payload: `{ kind, payload }`, or a legacy swe payload. */
export function harnessTaskOf(payload: Pick<THarnessPayload, "task">): HarnessTask {
  const { task } = payload;
  if (task.kind === undefined) return { kind: LEGACY_TASK_KIND, payload: task };
  return { kind: task.kind, payload: task.payload };
}
