import { failureOf, stageFailure } from "@raas/shared";
import type { ChatObservation, ChatToolCall, ParsedChatResponse } from "../ports/chat-format.port";
import type { ToolResult } from "../ports/sandbox-runtime.port";
import type { AgentEvent } from "./agent-loop.types";
import type { AgentLoopState } from "./agent-loop-state";
import { truncateMiddle } from "./observation-text";
import { validateToolArguments } from "./tool-arguments.validator";
import { classifyToolError } from "./tool-call-failure";

/** The tool calls of one turn: their running index and the observations for the model. */
interface TurnCalls {
  readonly state: AgentLoopState;
  readonly turnIndex: number;
  callIndex: number;
  readonly observations: ChatObservation[];
}

/**
 * Runs a turn's tool calls through the toolbox in order. Policy mistakes (malformed call, unknown
 * tool, bad arguments) become observations; a finish tool sets `state.submission` and ends the
 * turn, as does a spent time budget. Returns what the model sees next.
 */
export async function runToolCalls(
  state: AgentLoopState,
  turnIndex: number,
  parsed: ParsedChatResponse,
): Promise<ChatObservation[]> {
  const turn: TurnCalls = { state, turnIndex, callIndex: 0, observations: [] };
  for (const error of parsed.callErrors)
    recordMistake(turn, "malformed_tool_call", error.message, "(malformed)", { raw: error.raw });
  for (const call of parsed.toolCalls) {
    const mistake = findCallMistake(state, call);
    if (mistake) {
      recordMistake(turn, mistake.type, mistake.message, call.name, call.arguments);
      continue;
    }
    if (state.finishNames.has(call.name)) {
      state.submission = call;
      break;
    }
    const remainingMs = state.deadlineMs - state.clock.now();
    if (remainingMs <= 0) break;
    await callTool(turn, call, remainingMs);
  }
  return turn.observations;
}

function findCallMistake(
  { specs, finishNames }: AgentLoopState,
  call: ChatToolCall,
): { type: AgentEvent["type"]; message: string } | null {
  const spec = specs.get(call.name);
  if (!spec && !finishNames.has(call.name)) {
    const known = [...specs.keys()].join(", ");
    return {
      type: "unknown_tool",
      message: `There is no tool named "${call.name}". Available tools: ${known}.`,
    };
  }
  const argumentError = spec ? validateToolArguments(call.name, spec.parameters, call.arguments) : null;
  return argumentError ? { type: "invalid_arguments", message: argumentError } : null;
}

function recordMistake(
  turn: TurnCalls,
  type: AgentEvent["type"],
  message: string,
  name: string,
  args: unknown,
) {
  const { state, turnIndex } = turn;
  state.events.push({ type, turnIndex, message });
  // A malformed call has no name to answer from.
  const toolName = type === "malformed_tool_call" ? undefined : name;
  turn.observations.push({ role: "tool", content: message, ...(toolName && { toolName }) });
  state.options.recorder?.toolCall({
    turnIndex,
    index: turn.callIndex++,
    name,
    arguments: args,
    output: message,
    exitCode: null,
    durationMs: 0,
    isError: true,
  });
}

async function callTool(turn: TurnCalls, call: ChatToolCall, remainingMs: number): Promise<void> {
  const { state } = turn;
  const { options, limits, signal, clock } = state;
  const calledAtMs = clock.now();
  let result: ToolResult;
  try {
    result = await options.toolbox.call(call.name, call.arguments, {
      signal,
      timeoutMs: Math.min(limits.toolTimeoutMs, remainingMs),
    });
  } catch (error) {
    throw toolCallFailure(turn, call, error, calledAtMs);
  }
  state.toolCallCount += 1;
  if (result.reward !== undefined && !Number.isFinite(result.reward)) {
    // The tool's (the environment's) error, not the policy's: never a reward a trainer reads.
    throw stageFailure("sandbox", `tool "${call.name}" returned a reward that is not a finite number`);
  }
  options.recorder?.toolCall({
    turnIndex: turn.turnIndex,
    index: turn.callIndex++,
    name: call.name,
    arguments: call.arguments,
    output: truncateMiddle(result.output, limits.maxRecordedOutputChars),
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    isError: result.isError,
    ...(result.reward !== undefined ? { reward: result.reward } : {}),
  });
  turn.observations.push({
    role: "tool",
    content: truncateMiddle(state.formatObservation(call, result), limits.maxObservationChars),
    toolName: call.name,
  });
}

/** What a failed call throws: the abort's reason, or the classified failure (recorded when the policy caused it). */
function toolCallFailure(turn: TurnCalls, call: ChatToolCall, error: unknown, calledAtMs: number): unknown {
  const { state } = turn;
  if (state.signal.aborted) return state.signal.reason;
  const failure = classifyToolError(call.name, error);
  const data = failureOf(failure);
  // The call that ended the trajectory is part of it when the policy caused the failure.
  if (data?.kind === "agent") {
    state.options.recorder?.toolCall({
      turnIndex: turn.turnIndex,
      index: turn.callIndex++,
      name: call.name,
      arguments: call.arguments,
      output: data.message,
      exitCode: null,
      durationMs: state.clock.now() - calledAtMs,
      isError: true,
    });
  }
  return failure;
}
