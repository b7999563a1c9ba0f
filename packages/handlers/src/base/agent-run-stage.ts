import {
  type AgentLoopLimits,
  type AgentLoopRequest,
  type AgentLoopResult,
  type AgentLoopRunner,
  type RunContext,
  runAgentLoop,
  scoreWithTeacher,
  systemClock,
} from "@raas/engine";
import { checkTokenDrift, policyFailure } from "@raas/shared";
import type {
  AgentInitOutput,
  AgentRunOutput,
  AgentRunSummary,
  TokenDriftSummary,
} from "./agent-handler.types";
import type { AgentHandlerBinding } from "./agent-handler-binding";
import type { TAgentTaskBase } from "./agent-payload.schema";
import { openAgentToolbox } from "./agent-toolbox";
import { asStageFailure, guardSandbox } from "./infrastructure-guard";
import { resolveJobSampling } from "./job-sampling";

/** Where an agent other than the built-in loop works when the definition does not say. */
const DEFAULT_AGENT_CWD = "/workspace";

/**
 * RUN: the agent loop in the INIT sandbox (closed when RUN ends unless EVAL keeps it), the
 * teacher's scoring when the job names one, a `failOn` stop failing as `agent`, then `collect`
 * and the token drift check. `runner` plays the
 * agent instead of the built-in loop (a harness); everything around it stays the kind's own.
 */
export async function runAgentStage<P extends TAgentTaskBase, S, A>(
  binding: AgentHandlerBinding<P, S, A>,
  ctx: RunContext<P, AgentInitOutput<S>>,
  runner: AgentLoopRunner = builtInLoopRunner(binding, ctx),
): Promise<AgentRunOutput<A>> {
  const { definition } = binding;
  const { sandbox, setup } = ctx.init;
  if (!definition.keepSandboxForEval) ctx.defer(() => sandbox.close());
  const loop = await runner.run({
    jobId: ctx.job.id,
    sandbox,
    systemPrompt: definition.systemPrompt(ctx.payload),
    userMessage: definition.userMessage(ctx.payload),
    cwd: definition.harnessCwd?.(ctx.payload, setup) ?? DEFAULT_AGENT_CWD,
    recorder: ctx.record,
    signal: ctx.signal,
  });
  const summary = summarize(loop);
  // Before the policy's own failure is thrown: such a trajectory is trainable, so it is scored too.
  const teacher = ctx.payload.agent?.teacher;
  if (teacher) {
    await scoreWithTeacher({
      jobId: ctx.job.id,
      inference: binding.deps.inference,
      teacher,
      turns: loop.turns,
      recorder: ctx.record,
      signal: ctx.signal,
      clock: systemClock,
    });
  }
  if (binding.failOn.has(loop.stopReason)) {
    throw policyFailure(`the agent stopped with ${loop.stopReason}: ${loop.stopMessage}`);
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
  // Unchecked: another record (a harness's gateway certificate) speaks for the tokens.
  const drift = runner.checksDrift ? driftOf(loop) : { isConsistent: true, turnsChecked: 0, violations: [] };
  return { summary, artifacts, drift };
}

/** The built-in agent loop as a runner: the request's prompts are the definition's own. */
function builtInLoopRunner<P extends TAgentTaskBase, S, A>(
  binding: AgentHandlerBinding<P, S, A>,
  ctx: RunContext<P, AgentInitOutput<S>>,
): AgentLoopRunner {
  return { checksDrift: true, run: (request) => runJobAgentLoop(binding, ctx, request) };
}

/**
 * The loop under the job's overrides: limits over the definition's over the defaults; its
 * sampling; the handler's tools and the job's tool servers.
 */
async function runJobAgentLoop<P extends TAgentTaskBase, S, A>(
  binding: AgentHandlerBinding<P, S, A>,
  ctx: RunContext<P, AgentInitOutput<S>>,
  request: AgentLoopRequest,
): Promise<AgentLoopResult> {
  const { definition, deps, defaults } = binding;
  const overrides = ctx.payload.agent ?? {};
  const {
    enableThinking: _thinking,
    harnessSampling: _harnessOnly,
    temperature: _temperature,
    topP: _topP,
    topK: _topK,
    seed: _seed,
    topLogprobs: _topLogprobs,
    teacher: _teacher,
    ...limitOverrides
  } = overrides;
  const limits: AgentLoopLimits = { ...defaults.limits, ...definition.limits, ...limitOverrides };
  return runAgentLoop({
    jobId: ctx.job.id,
    inference: deps.inference,
    chatFormat: deps.chatFormat,
    toolbox: await openAgentToolbox(binding, ctx),
    systemPrompt: request.systemPrompt,
    userMessage: request.userMessage,
    sampling: resolveJobSampling(defaults, overrides),
    limits,
    endOnTextResponse: definition.endOnTextResponse ?? true,
    enableThinking: overrides.enableThinking ?? defaults.enableThinking ?? true,
    recorder: ctx.record,
    signal: ctx.signal,
  });
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
