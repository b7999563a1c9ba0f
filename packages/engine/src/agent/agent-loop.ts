import type { AgentLoopResult, RunAgentLoopOptions } from "./agent-loop.types";
import {
  type AgentLoopState,
  type AgentStop,
  agentLoopResult,
  createAgentLoopState,
} from "./agent-loop-state";
import { runToolCalls } from "./agent-tool-calls";
import { generateTurn } from "./agent-turn-generate";
import { stopAfterGeneration, stopAfterToolCalls, stopBeforeTurn } from "./agent-turn-stops";

/**
 * The RUN-stage agent loop, token-in/token-out: template the opening prompt once, then for each
 * turn generate from the exact ids so far, parse tool calls, run them through the toolbox, and
 * append the response ids plus the newly templated observation ids. Policy mistakes (malformed
 * call, unknown tool, bad arguments, no tool call) are fed back to the model as observations.
 * Ends on a finish tool, a text answer, or a limit (see `AgentStopReason`). Errors throw:
 * `stageFailure('inference')` from generation; from a tool, `stageFailure('agent')` when the
 * sandbox blamed the policy for the error (`blamePolicy`: it killed its tools or
 * the execution server, hit a resource limit, crashed the sandbox during its call; the failed
 * call is recorded), else `stageFailure('sandbox')`. Turns and tool calls before the throw stay
 * recorded. An abort rethrows the signal's reason.
 */
export async function runAgentLoop(options: RunAgentLoopOptions): Promise<AgentLoopResult> {
  const state = createAgentLoopState(options);
  let stop: AgentStop | null = null;
  for (let index = 0; stop === null; index += 1) stop = await runAgentTurn(state, index);
  return agentLoopResult(state, stop);
}

/**
 * One turn: generate from the exact ids so far, run the tool calls, append the response ids plus
 * the newly templated observation ids. Returns why the loop ends, or null to go on.
 */
async function runAgentTurn(state: AgentLoopState, index: number): Promise<AgentStop | null> {
  if (state.signal.aborted) throw state.signal.reason;
  const before = stopBeforeTurn(state, index);
  if (before) return before;
  const turn = await generateTurn(state, index);
  const afterGeneration = stopAfterGeneration(state, index, turn);
  if (afterGeneration) return afterGeneration;
  const observations = await runToolCalls(state, index, turn.parsed);
  const afterCalls = stopAfterToolCalls(state, index, turn.parsed, observations);
  if (afterCalls) return afterCalls;
  const { responseIds } = turn.generated;
  const appended = state.options.chatFormat.renderObservations({
    responseIds,
    observations,
    enableThinking: state.enableThinking,
  });
  state.promptIds = [...state.promptIds, ...responseIds, ...appended];
  return null;
}
