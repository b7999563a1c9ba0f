import {
  type AgentLoopLimits,
  type AgentLoopResult,
  runAgentLoop,
  type Sandbox,
  type SandboxRuntime,
  type SandboxSpec,
  StageFailure,
  type TaskHandler,
  type ToolSpec,
} from "@raas/engine";
import { checkTokenDrift } from "@raas/shared";
import { z } from "zod";
import type {
  AgentDefaults,
  AgentHandlerDefinition,
  AgentHandlerDeps,
  AgentInitOutput,
  AgentRunOutput,
  AgentRunSummary,
  TokenDriftSummary,
} from "./agent-handler.types";
import type { TAgentTaskBase } from "./agent-payload.schema";
import { agentResultSchema } from "./agent-result.schema";
import { canFork, initFromGroupTemplate } from "./group-init";
import { GroupTemplates } from "./group-templates";
import { asStageFailure, guardSandbox } from "./infrastructure-guard";
import { resolveJobSampling } from "./job-sampling";
import { createSandboxToolbox } from "./sandbox-toolbox";
import { SUBMIT_TOOL_SPEC } from "./submit-tool";

/** A handler factory: the definition bound to its dependencies gives a `TaskHandler`. */
export type AgentHandlerFactory<P extends TAgentTaskBase, S, A> = (
  deps: AgentHandlerDeps,
) => TaskHandler<P, AgentInitOutput<S>, AgentRunOutput<A>>;

/**
 * Turns a handler definition into a `TaskHandler` factory. INIT starts the sandbox through the
 * injected runtime and runs `setup`; RUN runs the agent loop (closing the sandbox when RUN ends,
 * on every path) and checks token drift; EVAL calls `evaluate` with fresh sandboxes on demand.
 * Sandbox and inference errors fail the stage as `sandbox` / `inference`, never as a reward. What
 * the policy caused (a `failOn` stop; a tool call the sandbox marks as the policy's fault) fails
 * as `agent`, stored trainable with `failureReward` (default 0).
 */
export function defineAgentHandler<P extends TAgentTaskBase, S = undefined, A = undefined>(
  definition: AgentHandlerDefinition<P, S, A>,
): AgentHandlerFactory<P, S, A> {
  return (deps) => {
    const tools = resolveTools(definition, deps.sandboxRuntime);
    const defaults: AgentDefaults = deps.defaults ?? {};
    const failOn = new Set(definition.failOn ?? ["context_exhausted"]);
    const runtime = deps.sandboxRuntime;
    // INIT once per group (see `shareSetupInGroup`); templates are the runtime's, removed by closeAll.
    const templates =
      definition.shareSetupInGroup && defaults.groupFork !== false && canFork(runtime)
        ? new GroupTemplates<S>(defaults.groupFork ?? {})
        : undefined;
    return {
      kind: definition.kind,
      description: definition.description,
      failureReward: definition.failureReward,
      payloadSchema: definition.payloadSchema,
      resultSchema: agentResultSchema(definition.resultSchema ?? z.object({})),

      async init(ctx) {
        const spec = definition.sandbox?.(ctx.payload) ?? {};
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
        const sandbox = await openSandbox(deps.sandboxRuntime, defaults, ctx.job.id, spec, ctx.signal);
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
      },

      async run(ctx) {
        const { sandbox, setup } = ctx.init;
        if (!definition.keepSandboxForEval) ctx.defer(() => sandbox.close());
        const overrides = ctx.payload.agent ?? {};
        const {
          enableThinking: _thinking,
          harnessSampling: _harnessOnly,
          temperature: _temperature,
          topP: _topP,
          topK: _topK,
          seed: _seed,
          ...limitOverrides
        } = overrides;
        const limits: AgentLoopLimits = { ...defaults.limits, ...definition.limits, ...limitOverrides };
        const sampling = resolveJobSampling(defaults, overrides);
        const loop = await runAgentLoop({
          jobId: ctx.job.id,
          inference: deps.inference,
          chatFormat: deps.chatFormat,
          toolbox: createSandboxToolbox(sandbox, tools),
          systemPrompt: definition.systemPrompt(ctx.payload),
          userMessage: definition.userMessage(ctx.payload),
          sampling,
          limits,
          endOnTextResponse: definition.endOnTextResponse ?? true,
          enableThinking: overrides.enableThinking ?? defaults.enableThinking ?? true,
          recorder: ctx.record,
          signal: ctx.signal,
        });
        const summary = summarize(loop);
        if (failOn.has(loop.stopReason)) {
          throw new StageFailure("agent", `the agent stopped with ${loop.stopReason}: ${loop.stopMessage}`);
        }
        const artifacts = definition.collect
          ? await asStageFailure("sandbox", "collecting the run's results failed", ctx.signal, () =>
              (definition.collect as NonNullable<typeof definition.collect>)({
                jobId: ctx.job.id,
                payload: ctx.payload,
                setup,
                sandbox: guardSandbox(sandbox, ctx.signal),
                loop,
                signal: ctx.signal,
              }),
            )
          : (undefined as A);
        return { summary, artifacts, drift: driftOf(loop) };
      },

      async eval(ctx) {
        const outcome = await definition.evaluate({
          jobId: ctx.job.id,
          payload: ctx.payload,
          setup: ctx.init.setup,
          run: ctx.run.summary,
          artifacts: ctx.run.artifacts,
          runSandbox: definition.keepSandboxForEval ? guardSandbox(ctx.init.sandbox, ctx.signal) : null,
          openSandbox: async (spec = {}) => {
            const sandbox = await openSandbox(deps.sandboxRuntime, defaults, ctx.job.id, spec, ctx.signal);
            ctx.defer(() => sandbox.close());
            return guardSandbox(sandbox, ctx.signal);
          },
          signal: ctx.signal,
        });
        const handlerResult =
          typeof outcome.result === "object" && outcome.result !== null
            ? outcome.result
            : { detail: outcome.result ?? null };
        return {
          reward: outcome.reward,
          result: { ...handlerResult, agent: ctx.run.summary, tokenDrift: ctx.run.drift },
        };
      },
    };
  };
}

function resolveTools(
  definition: Pick<AgentHandlerDefinition<TAgentTaskBase>, "kind" | "tools" | "submitTool">,
  runtime: SandboxRuntime,
): ToolSpec[] {
  const served = new Map((runtime.toolSpecs ?? []).map((spec) => [spec.name, spec]));
  const tools = definition.tools.map((name) => {
    const spec = served.get(name);
    if (!spec) {
      throw new Error(
        `handler "${definition.kind}" needs tool "${name}", which sandbox runtime "${runtime.name}" does not serve (it serves: ${[...served.keys()].join(", ") || "none"})`,
      );
    }
    return spec;
  });
  const submit = definition.submitTool === undefined ? SUBMIT_TOOL_SPEC : definition.submitTool;
  return submit ? [...tools, submit] : tools;
}

async function openSandbox(
  runtime: SandboxRuntime,
  defaults: AgentDefaults,
  jobId: string,
  spec: Omit<SandboxSpec, "jobId">,
  signal: AbortSignal,
): Promise<Sandbox> {
  const limits = { ...defaults.sandboxLimits, ...spec.limits };
  return asStageFailure("sandbox", "starting the sandbox failed", signal, () =>
    runtime.create({ ...spec, jobId, limits }, signal),
  );
}

function summarize(loop: AgentLoopResult): AgentRunSummary {
  return {
    stopReason: loop.stopReason,
    stopMessage: loop.stopMessage,
    turns: loop.turns.length,
    toolCalls: loop.toolCallCount,
    responseTokens: loop.responseTokens,
    finalContent: loop.finalContent,
    submission: loop.submission,
    events: loop.events,
    durationMs: loop.durationMs,
  };
}

/** Runs the token-in/token-out drift check over the turns the loop recorded. */
function driftOf(loop: AgentLoopResult): TokenDriftSummary {
  const report = checkTokenDrift(loop.turns);
  return {
    isConsistent: report.isConsistent,
    turnsChecked: report.turnsChecked,
    violations: report.violations,
  };
}
