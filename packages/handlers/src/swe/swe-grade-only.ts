import type { EvalContext, EvalOutcome } from "@raas/engine";
import type { AgentHandlerDeps } from "../base/agent-handler.types";
import { tamperedFailure } from "../base/canary/index";
import { asStageFailure, guardSandbox } from "../base/infrastructure-guard";
import { jobSandboxDefaults } from "../base/job-sandbox-defaults";
import { evaluateSwePatch } from "./swe-evaluator";
import type { SweHandlerContext } from "./swe-handler-context";
import type { TSwePayload } from "./swe-payload.schema";

/** INIT/RUN output of a job that grades a given patch: nothing happens before EVAL. */
export const GRADE_ONLY = { gradeOnly: true } as const;
export type GradeOnly = typeof GRADE_ONLY;

/** A job that grades `payload.modelPatch` (a prediction) instead of running a rollout. */
export function isGradeOnly(payload: TSwePayload): boolean {
  return payload.modelPatch !== undefined;
}

/** EVAL of a grade-only job: `payload.modelPatch` graded in fresh sandboxes, closed when EVAL ends. */
export async function gradeGivenPatch(
  context: SweHandlerContext,
  deps: AgentHandlerDeps,
  ctx: EvalContext<TSwePayload, unknown, unknown>,
): Promise<EvalOutcome> {
  const report = await evaluateSwePatch({
    instance: ctx.payload.instance,
    modelPatch: ctx.payload.modelPatch ?? null,
    repoSource: context.config.repoSource,
    openSandbox: async (spec) => {
      const limits = { ...deps.defaults?.sandboxLimits, ...spec.limits };
      const sandbox = await asStageFailure("sandbox", "starting the sandbox failed", ctx.signal, () =>
        deps.sandboxRuntime.create({ ...spec, jobId: ctx.job.id, limits }, ctx.signal),
      );
      ctx.defer(() => sandbox.close());
      return guardSandbox(sandbox, ctx.signal);
    },
    options: context.evalOptionsOf(jobSandboxDefaults(ctx.payload, ctx.job)),
    ...(ctx.payload.spec !== undefined && { spec: ctx.payload.spec }),
    goodReferences: context.goodReferences,
    signal: ctx.signal,
  });
  if (report.tampered) throw tamperedFailure(report.canaries?.lies ?? [], report);
  return { reward: report.resolved ? 1 : 0, result: report };
}
