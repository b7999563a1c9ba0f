import { readFileSync } from "node:fs";
import type { AnyTaskHandler, EvalContext, RunContext, StageContext, TaskHandler } from "@raas/engine";
import { stageFailure } from "@raas/shared";
import { z } from "zod";
import type { AgentDefaults } from "../base/agent-handler.types";
import { asStageFailure } from "../base/infrastructure-guard";
import { resolveJobSampling } from "../base/job-sampling";
import type { HarnessGateway } from "./harness-gateway.types";
import {
  harnessPayloadSchema,
  harnessTaskOf,
  LEGACY_TASK_KIND,
  type THarnessPayload,
} from "./harness-payload.schema";
import { createHarnessRunner, HARNESS_PATH } from "./harness-runner";
import type { HarnessInstallCache } from "./recipes/harness-install-cache";
import { HARNESS_RECIPES } from "./recipes/harness-recipes";
import { RECIPE_GATEWAY_PORT, recipeBinds, recipeLaunch } from "./recipes/recipe-launch";

export type { HarnessGateway } from "./harness-gateway.types";

/** The shipped example harnesses, written into every harness directory. */
const EXAMPLES = {
  "swe_agent.py": readFileSync(new URL("../../harnesses/swe_agent.py", import.meta.url), "utf8"),
  "task_agent.py": readFileSync(new URL("../../harnesses/task_agent.py", import.meta.url), "utf8"),
};

/** INIT's output: the task's kind and what that kind's INIT returned. */
interface HarnessInit {
  kind: string;
  init: unknown;
}

/** RUN's output: what that kind's RUN (with the harness as its agent) returned. */
interface HarnessRun {
  run: unknown;
}

interface HarnessHandlerConfig {
  gateway: HarnessGateway;
  /**
   * The handlers whose agent a harness may play (those with `runWithAgent`: every handler built
   * with `defineAgentHandler`, swe's rollouts); others are left out. At least one.
   */
  targets: readonly AnyTaskHandler[];
  /** Sampling defaults under the job's `agent` (as the agent handlers' `defaults`). */
  defaults?: AgentDefaults;
  /**
   * Where recipes (`payload.recipe`) are installed, and the host's node binary mounted for those
   * that run on node. Default none: a job naming a recipe fails as `sandbox`, saying so.
   */
  recipes?: { installCache: HarnessInstallCache; nodePath: string };
}

/** The handlers a harness can play the agent of. */
function harnessableHandlers(handlers: readonly AnyTaskHandler[]): AnyTaskHandler[] {
  return handlers.filter((handler) => handler.runWithAgent !== undefined);
}

/**
 * `harness`: bring your own agent to any agent kind. INIT and EVAL are the task kind's own (its
 * sandbox and setup; its grader, e.g. a Harbor verifier in a fresh sandbox); RUN is the kind's
 * with the harness as its agent (`createHarnessRunner`): the kind's prompts go to the harness's
 * task file, the gateway's calls become the turns, and the kind's own `collect` takes the result
 * (a diff, a workspace snapshot, the turns for a verifier).
 */
export function createHarnessHandler(
  config: HarnessHandlerConfig,
): TaskHandler<THarnessPayload, HarnessInit, HarnessRun> {
  const targets = harnessableHandlers(config.targets);
  if (targets.length === 0) throw new Error("a harness handler needs at least one kind with runWithAgent");
  const byKind = new Map(targets.map((target) => [target.kind, target]));
  const targetOf = (payload: THarnessPayload) => {
    const task = harnessTaskOf(payload);
    const target = byKind.get(task.kind);
    // The payload schema admits only these kinds: another is a bug, not the caller's.
    if (!target) throw new Error(`harness: no handler for kind "${task.kind}"`);
    return { task, target };
  };
  return {
    kind: "harness",
    description: `A harness of your own (any OpenAI-API agent) as the agent of a ${targets.map((target) => target.kind).join(", ")} task, through the inference gateway.`,
    payloadSchema: harnessPayloadSchema(targets),
    resultSchema: z
      .record(z.string(), z.unknown())
      .describe("The task kind's own result (see that kind's), with `agent` and `tokenDrift`."),
    async init(ctx: StageContext<THarnessPayload>) {
      const { task, target } = targetOf(ctx.payload);
      const binds = await recipeBindsOf(config, ctx);
      return {
        kind: task.kind,
        init: await target.init({
          ...ctx,
          payload: task.payload,
          ...(binds.length > 0 && { sandboxReadOnlyBinds: binds }),
        }),
      };
    },
    async run(ctx: RunContext<THarnessPayload, HarnessInit>) {
      const { task, target } = targetOf(ctx.payload);
      const { payload } = ctx;
      const runner = createHarnessRunner(ctx, {
        gateway: config.gateway,
        sampling: {
          settings: resolveJobSampling(config.defaults ?? {}, payload.agent),
          mode: payload.agent?.harnessSampling ?? "override",
        },
        ...(payload.recipe !== undefined && { gatewayPort: RECIPE_GATEWAY_PORT }),
        launch: (request, apiKey) => {
          if (payload.recipe === undefined) {
            const script = task.kind === LEGACY_TASK_KIND ? "swe_agent.py" : "task_agent.py";
            return {
              argv: payload.command ?? ["python3", `${HARNESS_PATH}/${script}`],
              env: {},
              files: { ...EXAMPLES, ...payload.files },
            };
          }
          const launch = recipeLaunch(HARNESS_RECIPES[payload.recipe], {
            instruction: request.userMessage,
            apiKey,
            harnessDir: HARNESS_PATH,
          });
          return { ...launch, files: { ...payload.files, ...launch.files } };
        },
        timeoutMs: payload.timeoutMs,
      });
      const runWithAgent = target.runWithAgent as NonNullable<AnyTaskHandler["runWithAgent"]>;
      return { run: await runWithAgent({ ...ctx, payload: task.payload, init: ctx.init.init }, runner) };
    },
    eval(ctx: EvalContext<THarnessPayload, HarnessInit, HarnessRun>) {
      const { task, target } = targetOf(ctx.payload);
      return target.eval({ ...ctx, payload: task.payload, init: ctx.init.init, run: ctx.run.run });
    },
  };
}

/** The recipe's package installed (once per host) and the binds that mount it; none without a recipe. */
async function recipeBindsOf(config: HarnessHandlerConfig, ctx: StageContext<THarnessPayload>) {
  const name = ctx.payload.recipe;
  if (name === undefined) return [];
  const recipe = HARNESS_RECIPES[name];
  const recipes = config.recipes;
  if (!recipes) {
    throw stageFailure(
      "sandbox",
      `harness recipe "${name}": this server has no harness install cache configured`,
    );
  }
  const installed = await asStageFailure(
    "sandbox",
    `installing harness recipe "${name}" (${recipe.npmPackage}@${recipe.version}) failed`,
    ctx.signal,
    () => recipes.installCache.ensureInstalled(recipe),
  );
  return recipeBinds(recipe, installed, recipes.nodePath);
}
