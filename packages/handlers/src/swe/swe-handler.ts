import type { AgentLoopLimits, EvalContext, RunContext, TaskHandler } from "@raas/engine";
import type { AgentHandlerDeps, AgentInitOutput, AgentRunOutput } from "../base/agent-handler.types";
import { ZAgentRunSummary, ZTokenDriftSummary } from "../base/agent-result.schema";
import { asStageFailure } from "../base/infrastructure-guard";
import { jobSandboxDefaults } from "../base/job-sandbox-defaults";
import { defineSweAgentHandler } from "./swe-agent-handler";
import { GRADE_ONLY, type GradeOnly, gradeGivenPatch, isGradeOnly } from "./swe-grade-only";
import { createSweHandlerContext } from "./swe-handler-context";
import type { SweEvalOptions } from "./swe-options";
import { type TSwePayload, ZSweResult } from "./swe-payload.schema";
import type { SweRepoSource } from "./swe-repo-source";

/** Configuration of the `swe` handler (from the composition root). */
export interface SweHandlerConfig extends SweEvalOptions {
  /** Where repositories come from (see `createBundleDirRepoSource`). */
  repoSource: SweRepoSource;
  /** Loop limits of SWE rollouts (under the job's overrides). Default 50 turns and 120_000 ms per tool call. */
  limits?: AgentLoopLimits;
}

/** What RUN hands to EVAL: the model's diff, or null (with the reason) when none could be taken. */
export interface SweArtifacts {
  modelPatch: string | null;
  diffError: string | null;
}

type AgentInit = AgentInitOutput<{ repoDir: string }>;
type AgentRun = AgentRunOutput<SweArtifacts>;

/** A rollout's result has `agent` and `tokenDrift`; grading a given modelPatch runs no agent. */
const SWE_RESULT_SCHEMA = ZSweResult.extend({
  agent: ZAgentRunSummary.optional().describe(
    "The agent loop's summary; absent when a modelPatch was graded.",
  ),
  tokenDrift: ZTokenDriftSummary.optional().describe(
    "The token-in/token-out check; absent when a modelPatch was graded.",
  ),
});

/**
 * SWE-bench / SWE-Gym: INIT checks the repository out at `base_commit` in `/workspace/<name>`
 * (history up to it only) and runs the spec's setup; RUN is the agent loop with
 * bash/python/editor; at the end of RUN the diff against `base_commit` (new files included) is
 * taken; EVAL grades it in a fresh sandbox with `evaluateSwePatch`. A payload with `modelPatch`
 * skips INIT and RUN and grades that patch. Reward = resolved (1/0); the report is the result.
 */
export function createSweHandlerFactory(config: SweHandlerConfig) {
  const context = createSweHandlerContext(config);
  const agentFactory = defineSweAgentHandler(context);
  return (deps: AgentHandlerDeps): TaskHandler<TSwePayload, AgentInit | GradeOnly, AgentRun | GradeOnly> => {
    const agent = agentFactory(deps);
    return {
      kind: agent.kind,
      ...(agent.description !== undefined && { description: agent.description }),
      payloadSchema: agent.payloadSchema,
      resultSchema: SWE_RESULT_SCHEMA,
      // Known from the payload alone: the INIT item carries it, for image-aware placement.
      imageOf: (payload, job) => context.imageOf(payload, jobSandboxDefaults(payload, job)),
      async init(ctx) {
        // An instance without its prepared environment image cannot be run or graded: `sandbox` (setup).
        await asStageFailure("sandbox", "no environment image", ctx.signal, async () =>
          context.imageOf(ctx.payload, jobSandboxDefaults(ctx.payload, ctx.job)),
        );
        return isGradeOnly(ctx.payload) ? GRADE_ONLY : agent.init(ctx);
      },
      async run(ctx) {
        if (isGradeOnly(ctx.payload)) return GRADE_ONLY;
        return agent.run(ctx as RunContext<TSwePayload, AgentInit>);
      },
      async runWithAgent(ctx, runner) {
        // A given modelPatch is graded as it is: no agent runs (the harness payload refuses one).
        if (isGradeOnly(ctx.payload)) return GRADE_ONLY;
        return (agent.runWithAgent as NonNullable<typeof agent.runWithAgent>)(
          ctx as RunContext<TSwePayload, AgentInit>,
          runner,
        );
      },
      async eval(ctx) {
        if (isGradeOnly(ctx.payload)) return gradeGivenPatch(context, deps, ctx);
        return agent.eval(ctx as EvalContext<TSwePayload, AgentInit, AgentRun>);
      },
    };
  };
}
