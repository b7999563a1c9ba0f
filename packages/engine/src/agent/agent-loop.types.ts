import type { TSamplingParams } from "@raas/shared";
import type { ChatFormat, ChatToolCall } from "../ports/chat-format.port";
import type { Clock } from "../ports/clock.port";
import type {
  InferencePool,
  SamplingParams,
  TopLogprob,
  WeightVersionSpan,
} from "../ports/inference-pool.port";
import type { ToolResult, ToolSpec } from "../ports/sandbox-runtime.port";
import type { TrajectoryRecorder } from "../ports/task-handler.port";

/** The tools an agent may call, usually backed by the job's sandbox. */
export interface AgentToolbox {
  /** Tools offered to the model (listed in the system prompt). Finish tools may be among them. */
  readonly specs: readonly ToolSpec[];
  /**
   * Executes one tool. The agent's own mistakes (non-zero exit, traceback, timeout) come back as a
   * `ToolResult` with `isError`. A throw ends the stage: as `agent` when the error carries a
   * sandbox failure blamed on the policy (`blamePolicy`: the call killed the execution server, hit
   * a resource limit, crashed the sandbox), as the kind of a stage failure, else as `sandbox`.
   */
  call(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolResult>;
}

/** Why a trajectory ended without an exception. */
export type AgentStopReason =
  /** The model called a finish tool (`submit`/`finish`). */
  | "submitted"
  /** The model answered without a tool call (and `endOnTextResponse` is on). */
  | "final_answer"
  | "max_turns"
  /** Not enough context left for another response of `minResponseTokens`. */
  | "context_exhausted"
  /** A response hit the per-turn token limit. */
  | "response_truncated"
  /** The wall-time budget of the loop ran out. */
  | "time_budget"
  /** The same action was repeated `maxRepeatedActions` times in a row. */
  | "loop_detected";

export const AGENT_STOP_REASONS: readonly AgentStopReason[] = [
  "submitted",
  "final_answer",
  "max_turns",
  "context_exhausted",
  "response_truncated",
  "time_budget",
  "loop_detected",
];

/** A policy mistake fed back to the model (never a crash), kept in the loop result. */
export interface AgentEvent {
  type: "malformed_tool_call" | "unknown_tool" | "invalid_arguments" | "no_tool_call" | "loop_detected";
  turnIndex: number;
  message: string;
}

/** Limits of one agent loop. Every field has a default. */
export interface AgentLoopLimits {
  /** Model turns at most. Default 30. */
  maxTurns?: number;
  /** Prompt + response tokens at most. Default 32_768. */
  maxContextTokens?: number;
  /** Response tokens per turn at most (the backend's `max_tokens`). Default 4_096. */
  maxTokensPerTurn?: number;
  /**
   * Stop with `context_exhausted` when fewer tokens than this are left for a response.
   * Default `min(maxTokensPerTurn, 256)`.
   */
  minResponseTokens?: number;
  /** Wall-time budget of the whole loop in ms (model + tools). Default 1_800_000. */
  timeBudgetMs?: number;
  /** Time limit of one tool call in ms (capped by the remaining budget). Default 30_000. */
  toolTimeoutMs?: number;
  /** Identical consecutive actions that end the trajectory with `loop_detected`. Default 5; 0 disables. */
  maxRepeatedActions?: number;
  /** Characters of a tool output shown to the model; longer output keeps head and tail. Default 16_000. */
  maxObservationChars?: number;
  /** Characters of a tool output kept in the recorded tool call. Default 8_000. */
  maxRecordedOutputChars?: number;
}

export interface RunAgentLoopOptions {
  /** Job id: routes every turn to the same backend (prefix-cache reuse). */
  jobId: string;
  inference: InferencePool;
  chatFormat: ChatFormat;
  toolbox: AgentToolbox;
  systemPrompt: string;
  userMessage: string;
  /** Sampling of every turn; `maxTokens` is set by the loop from the limits. Default `{}`. */
  sampling?: Omit<SamplingParams, "maxTokens" | "stopTokenIds">;
  limits?: AgentLoopLimits;
  /** Tool names that end the trajectory when called; their arguments are returned. Default `["submit", "finish"]`. */
  finishToolNames?: readonly string[];
  /**
   * True: a response without any tool call ends the trajectory (`final_answer`). False: the
   * model is told to call a tool and the loop continues. Default true.
   */
  endOnTextResponse?: boolean;
  /** Thinking block on (Qwen3 `enable_thinking`). Default true. */
  enableThinking?: boolean;
  /** Formats a tool result as the model sees it. Default: output, plus the exit code when non-zero. */
  formatObservation?: (call: ChatToolCall, result: ToolResult) => string;
  /** Where turns and tool calls are recorded (`ctx.record`). */
  recorder?: TrajectoryRecorder;
  /** Cancel and stage timeout; an abort rethrows the signal's reason. */
  signal?: AbortSignal;
  clock?: Clock;
}

/** One model turn as the loop saw it (the same data it recorded). */
export interface AgentTurn {
  index: number;
  promptIds: number[];
  responseIds: number[];
  logprobs: number[];
  /** Per response token, the top-k alternatives; present only when the job asked for them. */
  topLogprobs?: TopLogprob[][];
  backendId: string;
  weightVersion: string | null;
  /** Per-token weight versions when a weight sync split the turn between versions; else null. */
  weightVersionSpans: WeightVersionSpan[] | null;
  /** Prompt tokens served from the backend's prefix cache; null when the backend did not say. */
  cachedPromptTokens: number | null;
  latencyMs: number;
  finishReason: string | null;
  text: string;
  /** The sampling parameters the turn was generated with, as sent to the backend. */
  sampling: TSamplingParams;
  thinking: string | null;
  content: string;
  toolCalls: ChatToolCall[];
}

export interface AgentLoopResult {
  stopReason: AgentStopReason;
  /** Human-readable detail of the stop. */
  stopMessage: string;
  turns: AgentTurn[];
  /** Visible content of the last response (where a final answer usually is). */
  finalContent: string;
  /** The finish tool call, when the model submitted. */
  submission: ChatToolCall | null;
  toolCallCount: number;
  /** Policy mistakes fed back to the model. */
  events: AgentEvent[];
  /** The whole conversation's ids: last prompt + last response. */
  conversationIds: number[];
  /** Response tokens over all turns. */
  responseTokens: number;
  durationMs: number;
}
