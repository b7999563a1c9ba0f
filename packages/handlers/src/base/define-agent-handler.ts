import type { TaskHandler } from "@raas/engine";
import { z } from "zod";
import { evalAgentStage } from "./agent-eval-stage";
import type {
  AgentHandlerDefinition,
  AgentHandlerDeps,
  AgentInitOutput,
  AgentRunOutput,
} from "./agent-handler.types";
import { bindAgentHandler } from "./agent-handler-binding";
import { initAgentStage } from "./agent-init-stage";
import type { TAgentTaskBase } from "./agent-payload.schema";
import { agentResultSchema } from "./agent-result.schema";
import { runAgentStage } from "./agent-run-stage";
import { jobSandboxDefaults } from "./job-sandbox-defaults";

/** A handler factory: the definition bound to its dependencies gives a `TaskHandler`. */
export type AgentHandlerFactory<P extends TAgentTaskBase, S, A> = (
  deps: AgentHandlerDeps,
) => TaskHandler<P, AgentInitOutput<S>, AgentRunOutput<A>>;

/**
 * Turns a handler definition into a `TaskHandler` factory. INIT starts the sandbox through the
 * injected runtime and runs `setup`; RUN runs the agent loop (closing the sandbox when RUN ends,
 * on every path) and checks token drift — or, through `runWithAgent`, lets another runner (a
 * harness) play the agent between the same INIT, `collect` and EVAL; EVAL calls `evaluate` with fresh sandboxes on demand.
 * Sandbox and inference errors fail the stage as `sandbox` / `inference`, never as a reward. What
 * the policy caused (a `failOn` stop; a tool call the sandbox marks as the policy's fault) fails
 * as `agent`, stored trainable with `failureReward` (default 0).
 */
export function defineAgentHandler<P extends TAgentTaskBase, S = undefined, A = undefined>(
  definition: AgentHandlerDefinition<P, S, A>,
): AgentHandlerFactory<P, S, A> {
  return (deps) => {
    const binding = bindAgentHandler(definition, deps);
    return {
      kind: definition.kind,
      description: definition.description,
      failureReward: definition.failureReward,
      payloadSchema: definition.payloadSchema,
      resultSchema: agentResultSchema(definition.resultSchema ?? z.object({})),
      // The task's own image, else the payload's or its run's: what INIT's sandbox will run on.
      imageOf: (payload, job) => definition.imageOf?.(payload) ?? jobSandboxDefaults(payload, job).image,
      init: (ctx) => initAgentStage(binding, ctx),
      run: (ctx) => runAgentStage(binding, ctx),
      runWithAgent: (ctx, runner) => runAgentStage(binding, ctx, runner),
      eval: (ctx) => evalAgentStage(binding, ctx),
    };
  };
}
