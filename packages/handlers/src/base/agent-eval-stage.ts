import type { EvalContext, EvalOutcome } from "@raas/engine";
import type { AgentInitOutput, AgentRunOutput } from "./agent-handler.types";
import { type AgentHandlerBinding, openAgentSandbox } from "./agent-handler-binding";
import type { TAgentTaskBase } from "./agent-payload.schema";
import { guardSandbox } from "./infrastructure-guard";
import { jobSandboxDefaults, withJobImage } from "./job-sandbox-defaults";
import { checkTurnRewardRange } from "./verifier-turn-rewards";

/**
 * EVAL: `evaluate` with fresh sandboxes on demand (closed when EVAL ends); its result is stored
 * with the RUN's summary and drift check. Turn rewards must name turns the RUN made: one that
 * does not fails the stage as `eval` (the verifier's error).
 */
export async function evalAgentStage<P extends TAgentTaskBase, S, A>(
  binding: AgentHandlerBinding<P, S, A>,
  ctx: EvalContext<P, AgentInitOutput<S>, AgentRunOutput<A>>,
): Promise<EvalOutcome> {
  const { definition } = binding;
  const defaults = jobSandboxDefaults(ctx.payload, ctx.job);
  const outcome = await definition.evaluate({
    jobId: ctx.job.id,
    payload: ctx.payload,
    setup: ctx.init.setup,
    run: ctx.run.summary,
    artifacts: ctx.run.artifacts,
    runSandbox: definition.keepSandboxForEval ? guardSandbox(ctx.init.sandbox, ctx.signal) : null,
    openSandbox: async (spec = {}) => {
      const sandbox = await openAgentSandbox(binding, ctx.job.id, withJobImage(spec, defaults), ctx.signal);
      ctx.defer(() => sandbox.close());
      return guardSandbox(sandbox, ctx.signal);
    },
    defaults,
    signal: ctx.signal,
  });
  const handlerResult =
    typeof outcome.result === "object" && outcome.result !== null
      ? outcome.result
      : { detail: outcome.result ?? null };
  const result = { ...handlerResult, agent: ctx.run.summary, tokenDrift: ctx.run.drift };
  if (outcome.turnRewards === undefined || outcome.turnRewards.length === 0) {
    return { reward: outcome.reward, result };
  }
  checkTurnRewardRange(outcome.turnRewards, ctx.run.summary.turns, result);
  return { reward: outcome.reward, result, turnRewards: outcome.turnRewards };
}
