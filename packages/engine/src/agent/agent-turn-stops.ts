import type { ChatObservation, ParsedChatResponse } from "../ports/chat-format.port";
import { actionKey } from "./action-repeat-detector";
import type { AgentLoopState, AgentStop } from "./agent-loop-state";
import type { GeneratedTurn } from "./agent-turn-generate";

const NO_TOOL_CALL_FEEDBACK =
  "Your response contained no tool call. Call one of the tools to continue, or call submit when you are done.";

/** Before generating: the turn limit, the room left in the context, the time budget. */
export function stopBeforeTurn(state: AgentLoopState, index: number): AgentStop | null {
  const { limits, promptIds } = state;
  const room = limits.maxContextTokens - promptIds.length;
  if (index >= limits.maxTurns)
    return { reason: "max_turns", message: `reached the limit of ${limits.maxTurns} turns` };
  if (room < limits.minResponseTokens) {
    return {
      reason: "context_exhausted",
      message: `${promptIds.length} of ${limits.maxContextTokens} context tokens used; fewer than ${limits.minResponseTokens} left for a response`,
    };
  }
  return stopOnTimeBudget(state);
}

/**
 * After generating, before running anything: a truncated response, or the same action repeated
 * too often (a repeated action is not executed again).
 */
export function stopAfterGeneration(
  state: AgentLoopState,
  index: number,
  { generated, parsed, maxTokens }: GeneratedTurn,
): AgentStop | null {
  if (generated.finishReason === "length") {
    return maxTokens < state.limits.maxTokensPerTurn
      ? {
          reason: "context_exhausted",
          message: `the response filled the remaining ${maxTokens} context tokens`,
        }
      : {
          reason: "response_truncated",
          message: `the response hit the limit of ${maxTokens} tokens per turn`,
        };
  }
  const key = parsed.toolCalls.length > 0 ? actionKey(parsed.toolCalls) : `text:${parsed.content}`;
  if (!state.repeats.observe(key)) return null;
  const message = `the same action was repeated ${state.repeats.repeats} times in a row`;
  state.events.push({ type: "loop_detected", turnIndex: index, message });
  return { reason: "loop_detected", message };
}

/**
 * After the tool calls: a submission, a text answer (or, when text does not end the loop, the
 * feedback that a tool call was expected, added to `observations`), the time budget.
 */
export function stopAfterToolCalls(
  state: AgentLoopState,
  index: number,
  parsed: ParsedChatResponse,
  observations: ChatObservation[],
): AgentStop | null {
  const { submission } = state;
  if (submission) return { reason: "submitted", message: `the model called ${submission.name}` };
  if (parsed.toolCalls.length === 0 && parsed.callErrors.length === 0) {
    if (state.options.endOnTextResponse ?? true) {
      return { reason: "final_answer", message: "the model answered without a tool call" };
    }
    state.events.push({ type: "no_tool_call", turnIndex: index, message: NO_TOOL_CALL_FEEDBACK });
    observations.push({ role: "user", content: NO_TOOL_CALL_FEEDBACK });
  }
  return stopOnTimeBudget(state);
}

function stopOnTimeBudget({ clock, deadlineMs, limits }: AgentLoopState): AgentStop | null {
  if (clock.now() < deadlineMs) return null;
  return { reason: "time_budget", message: `the time budget of ${limits.timeBudgetMs} ms ran out` };
}
