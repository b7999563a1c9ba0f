import type { StageContext } from "@raas/engine";
import type { AgentInitOutput } from "./agent-handler.types";
import { type AgentHandlerBinding, openAgentSandbox } from "./agent-handler-binding";
import type { TAgentTaskBase } from "./agent-payload.schema";
import { canFork, initFromGroupTemplate } from "./group-init";
import { asStageFailure, guardSandbox } from "./infrastructure-guard";
import { jobSandboxDefaults, withJobImage } from "./job-sandbox-defaults";

/**
 * INIT: a fork of the group's prepared sandbox when setup is shared in the group, else a new
 * sandbox (closed at the job's end) with `setup` run in it.
 */
export async function initAgentStage<P extends TAgentTaskBase, S, A>(
  binding: AgentHandlerBinding<P, S, A>,
  ctx: StageContext<P>,
): Promise<AgentInitOutput<S>> {
  const { definition, defaults, templates } = binding;
  const runtime = binding.deps.sandboxRuntime;
  const jobDefaults = jobSandboxDefaults(ctx.payload, ctx.job);
  // The task's own image (a SWE spec's, a Harbor task's) wins over the job's and its run's.
  const own = withJobImage(definition.sandbox?.(ctx.payload, jobDefaults) ?? {}, jobDefaults);
  // What the stage brings (a harness's installed CLI) is mounted beside the kind's own binds.
  const binds = [...(own.readOnlyBinds ?? []), ...(ctx.sandboxReadOnlyBinds ?? [])];
  const spec = binds.length > 0 ? { ...own, readOnlyBinds: binds } : own;
  const { groupId } = ctx.job;
  if (templates && groupId && definition.setup && canFork(runtime)) {
    return initFromGroupTemplate({
      runtime,
      templates,
      kind: definition.kind,
      groupId,
      ctx,
      spec: { ...spec, limits: { ...defaults.sandboxLimits, ...spec.limits } },
      setup: definition.setup,
    });
  }
  const sandbox = await openAgentSandbox(binding, ctx.job.id, spec, ctx.signal);
  ctx.deferToJobEnd(() => sandbox.close());
  const guarded = guardSandbox(sandbox, ctx.signal);
  const setup = definition.setup
    ? await asStageFailure("sandbox", "task setup failed", ctx.signal, () =>
        (definition.setup as NonNullable<typeof definition.setup>)({
          jobId: ctx.job.id,
          payload: ctx.payload,
          sandbox: guarded,
          signal: ctx.signal,
        }),
      )
    : (undefined as S);
  return { sandbox, setup };
}
