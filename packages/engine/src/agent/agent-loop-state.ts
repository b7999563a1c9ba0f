import type { ChatToolCall } from "../ports/chat-format.port";
import { type Clock, systemClock } from "../ports/clock.port";
import type { ToolResult, ToolSpec } from "../ports/sandbox-runtime.port";
import { ActionRepeatDetector } from "./action-repeat-detector";
import { resolveAgentLimits } from "./agent-limits";
import type {
  AgentEvent,
  AgentLoopLimits,
  AgentLoopResult,
  AgentStopReason,
  AgentTurn,
  RunAgentLoopOptions,
} from "./agent-loop.types";
import { defaultObservation } from "./observation-text";

/** Why the loop ended, with a sentence saying so. */
export interface AgentStop {
  reason: AgentStopReason;
  message: string;
}

/** The loop's options with their defaults, and what it has built so far. */
export interface AgentLoopState {
  readonly options: RunAgentLoopOptions;
  readonly limits: Required<AgentLoopLimits>;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly enableThinking: boolean;
  readonly finishNames: ReadonlySet<string>;
  readonly specs: ReadonlyMap<string, ToolSpec>;
  readonly formatObservation: (call: ChatToolCall, result: ToolResult) => string;
  readonly startedAtMs: number;
  /** Moved by the time generation waited out weight-sync pauses: a pause is not the policy's time. */
  deadlineMs: number;
  readonly repeats: ActionRepeatDetector;
  readonly turns: AgentTurn[];
  readonly events: AgentEvent[];
  /** The exact ids of the conversation so far: the next turn's prompt. */
  promptIds: number[];
  toolCallCount: number;
  submission: ChatToolCall | null;
}

/** Defaults applied, the clock started, the opening prompt templated once. */
export function createAgentLoopState(options: RunAgentLoopOptions): AgentLoopState {
  const { chatFormat, toolbox } = options;
  const limits = resolveAgentLimits(options.limits);
  const clock = options.clock ?? systemClock;
  const enableThinking = options.enableThinking ?? true;
  const startedAtMs = clock.now();
  return {
    options,
    limits,
    clock,
    signal: options.signal ?? new AbortController().signal,
    enableThinking,
    finishNames: new Set(options.finishToolNames ?? ["submit", "finish"]),
    specs: new Map(toolbox.specs.map((spec) => [spec.name, spec])),
    formatObservation: options.formatObservation ?? defaultObservation,
    startedAtMs,
    deadlineMs: startedAtMs + limits.timeBudgetMs,
    repeats: new ActionRepeatDetector(limits.maxRepeatedActions),
    turns: [],
    events: [],
    promptIds: chatFormat.renderInitialPrompt({
      systemPrompt: options.systemPrompt,
      tools: toolbox.specs,
      userMessage: options.userMessage,
      enableThinking,
    }),
    toolCallCount: 0,
    submission: null,
  };
}

export function agentLoopResult(state: AgentLoopState, stop: AgentStop): AgentLoopResult {
  const { turns } = state;
  const last = turns.at(-1);
  return {
    stopReason: stop.reason,
    stopMessage: stop.message,
    turns,
    finalContent: last?.content ?? "",
    submission: state.submission,
    toolCallCount: state.toolCallCount,
    events: state.events,
    conversationIds: last ? [...last.promptIds, ...last.responseIds] : state.promptIds,
    responseTokens: turns.reduce((sum, t) => sum + t.responseIds.length, 0),
    durationMs: state.clock.now() - state.startedAtMs,
  };
}
