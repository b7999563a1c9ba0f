import type { ChatObservation, ChatToolCall, ParsedChatResponse } from "../ports/chat-format.port";
import { systemClock } from "../ports/clock.port";
import type { GenerateResult, SamplingParams } from "../ports/inference-pool.port";
import type { ToolResult } from "../ports/sandbox-runtime.port";
import { describeSampling } from "../sampling/sampling-record";
import { asStageFailure } from "../stage-failure";
import { ActionRepeatDetector, actionKey } from "./action-repeat-detector";
import type {
  AgentEvent,
  AgentLoopLimits,
  AgentLoopResult,
  AgentStopReason,
  AgentTurn,
  RunAgentLoopOptions,
} from "./agent-loop.types";
import { defaultObservation, truncateMiddle } from "./observation-text";
import { validateToolArguments } from "./tool-arguments.validator";
import { classifyToolError } from "./tool-call-failure";

export const DEFAULT_AGENT_LIMITS: Required<Omit<AgentLoopLimits, "minResponseTokens">> = {
  maxTurns: 30,
  maxContextTokens: 32_768,
  maxTokensPerTurn: 4_096,
  timeBudgetMs: 1_800_000,
  toolTimeoutMs: 30_000,
  maxRepeatedActions: 5,
  maxObservationChars: 16_000,
  maxRecordedOutputChars: 8_000,
};

const NO_TOOL_CALL_FEEDBACK =
  "Your response contained no tool call. Call one of the tools to continue, or call submit when you are done.";

export function resolveAgentLimits(limits: AgentLoopLimits = {}): Required<AgentLoopLimits> {
  const merged = { ...DEFAULT_AGENT_LIMITS, ...stripUndefined(limits) };
  return { ...merged, minResponseTokens: limits.minResponseTokens ?? Math.min(merged.maxTokensPerTurn, 256) };
}

/**
 * The RUN-stage agent loop, token-in/token-out: template the opening prompt once, then for each
 * turn generate from the exact ids so far, parse tool calls, run them through the toolbox, and
 * append the response ids plus the newly templated observation ids. Policy mistakes (malformed
 * call, unknown tool, bad arguments, no tool call) are fed back to the model as observations.
 * Ends on a finish tool, a text answer, or a limit (see `AgentStopReason`). Errors throw:
 * `StageFailure('inference')` from generation; from a tool, `StageFailure('agent')` when the
 * sandbox marked the error as caused by the policy (`PolicyFaultMarks`: it killed its tools or
 * the execution server, hit a resource limit, crashed the sandbox during its call; the failed
 * call is recorded), else `StageFailure('sandbox')`. Turns and tool calls before the throw stay
 * recorded. An abort rethrows the signal's reason.
 */
export async function runAgentLoop(options: RunAgentLoopOptions): Promise<AgentLoopResult> {
  const { chatFormat, toolbox, recorder } = options;
  const limits = resolveAgentLimits(options.limits);
  const clock = options.clock ?? systemClock;
  const signal = options.signal ?? new AbortController().signal;
  const enableThinking = options.enableThinking ?? true;
  const finishNames = new Set(options.finishToolNames ?? ["submit", "finish"]);
  const specs = new Map(toolbox.specs.map((spec) => [spec.name, spec]));
  const formatObservation = options.formatObservation ?? defaultObservation;
  const startedAtMs = clock.now();
  // Moved by the time generation waited out weight-sync pauses: a pause is not the policy's time.
  let deadlineMs = startedAtMs + limits.timeBudgetMs;
  const repeats = new ActionRepeatDetector(limits.maxRepeatedActions);
  const turns: AgentTurn[] = [];
  const events: AgentEvent[] = [];
  let promptIds = chatFormat.renderInitialPrompt({
    systemPrompt: options.systemPrompt,
    tools: toolbox.specs,
    userMessage: options.userMessage,
    enableThinking,
  });
  let toolCallCount = 0;
  let submission: ChatToolCall | null = null;
  let stop: { reason: AgentStopReason; message: string } | null = null;

  for (let index = 0; stop === null; index += 1) {
    if (signal.aborted) throw signal.reason;
    const room = limits.maxContextTokens - promptIds.length;
    if (index >= limits.maxTurns) {
      stop = { reason: "max_turns", message: `reached the limit of ${limits.maxTurns} turns` };
      break;
    }
    if (room < limits.minResponseTokens) {
      stop = {
        reason: "context_exhausted",
        message: `${promptIds.length} of ${limits.maxContextTokens} context tokens used; fewer than ${limits.minResponseTokens} left for a response`,
      };
      break;
    }
    if (clock.now() >= deadlineMs) {
      stop = { reason: "time_budget", message: `the time budget of ${limits.timeBudgetMs} ms ran out` };
      break;
    }
    const maxTokens = Math.min(limits.maxTokensPerTurn, room);
    const sampling: SamplingParams = {
      ...options.sampling,
      maxTokens,
      stopTokenIds: [...chatFormat.stopTokenIds],
    };
    const generated = await asStageFailure("inference", "generation failed", signal, () =>
      options.inference.generate({ jobId: options.jobId, promptIds, sampling, signal, deadlineMs }),
    );
    deadlineMs += generated.pausedMs ?? 0;
    const parsed = chatFormat.parseResponse(generated.responseIds);
    const turn = recordTurn(options, index, promptIds, generated, parsed, {
      text: chatFormat.decode(generated.responseIds),
      sampling,
    });
    turns.push(turn);

    if (generated.finishReason === "length") {
      stop =
        maxTokens < limits.maxTokensPerTurn
          ? {
              reason: "context_exhausted",
              message: `the response filled the remaining ${maxTokens} context tokens`,
            }
          : {
              reason: "response_truncated",
              message: `the response hit the limit of ${maxTokens} tokens per turn`,
            };
      break;
    }

    // Checked before running anything: a repeated action is not executed again.
    const key = parsed.toolCalls.length > 0 ? actionKey(parsed.toolCalls) : `text:${parsed.content}`;
    if (repeats.observe(key)) {
      const message = `the same action was repeated ${repeats.repeats} times in a row`;
      events.push({ type: "loop_detected", turnIndex: index, message });
      stop = { reason: "loop_detected", message };
      break;
    }

    const observations: ChatObservation[] = [];
    let callIndex = 0;
    const mistake = (type: AgentEvent["type"], message: string, name: string, args: unknown) => {
      events.push({ type, turnIndex: index, message });
      observations.push({ role: "tool", content: message });
      recorder?.toolCall({
        turnIndex: index,
        index: callIndex++,
        name,
        arguments: args,
        output: message,
        exitCode: null,
        durationMs: 0,
        isError: true,
      });
    };
    for (const error of parsed.callErrors)
      mistake("malformed_tool_call", error.message, "(malformed)", { raw: error.raw });
    for (const call of parsed.toolCalls) {
      const spec = specs.get(call.name);
      if (!spec && !finishNames.has(call.name)) {
        const known = [...specs.keys()].join(", ");
        mistake(
          "unknown_tool",
          `There is no tool named "${call.name}". Available tools: ${known}.`,
          call.name,
          call.arguments,
        );
        continue;
      }
      const argumentError = spec ? validateToolArguments(call.name, spec.parameters, call.arguments) : null;
      if (argumentError) {
        mistake("invalid_arguments", argumentError, call.name, call.arguments);
        continue;
      }
      if (finishNames.has(call.name)) {
        submission = call;
        break;
      }
      const remainingMs = deadlineMs - clock.now();
      if (remainingMs <= 0) break;
      const calledAtMs = clock.now();
      let result: ToolResult;
      try {
        result = await toolbox.call(call.name, call.arguments, {
          signal,
          timeoutMs: Math.min(limits.toolTimeoutMs, remainingMs),
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        const failure = classifyToolError(call.name, error);
        // The call that ended the trajectory is part of it when the policy caused the failure.
        if (failure.kind === "agent") {
          recorder?.toolCall({
            turnIndex: index,
            index: callIndex++,
            name: call.name,
            arguments: call.arguments,
            output: failure.message,
            exitCode: null,
            durationMs: clock.now() - calledAtMs,
            isError: true,
          });
        }
        throw failure;
      }
      toolCallCount += 1;
      recordToolCall(options, index, callIndex++, call, result, limits.maxRecordedOutputChars);
      observations.push({
        role: "tool",
        content: truncateMiddle(formatObservation(call, result), limits.maxObservationChars),
      });
    }

    if (submission) {
      stop = { reason: "submitted", message: `the model called ${submission.name}` };
      break;
    }
    if (parsed.toolCalls.length === 0 && parsed.callErrors.length === 0) {
      if (options.endOnTextResponse ?? true) {
        stop = { reason: "final_answer", message: "the model answered without a tool call" };
        break;
      }
      events.push({ type: "no_tool_call", turnIndex: index, message: NO_TOOL_CALL_FEEDBACK });
      observations.push({ role: "user", content: NO_TOOL_CALL_FEEDBACK });
    }
    if (clock.now() >= deadlineMs) {
      stop = { reason: "time_budget", message: `the time budget of ${limits.timeBudgetMs} ms ran out` };
      break;
    }
    const appended = chatFormat.renderObservations({
      responseIds: generated.responseIds,
      observations,
      enableThinking,
    });
    promptIds = [...promptIds, ...generated.responseIds, ...appended];
  }

  const last = turns.at(-1);
  return {
    stopReason: stop.reason,
    stopMessage: stop.message,
    turns,
    finalContent: last?.content ?? "",
    submission,
    toolCallCount,
    events,
    conversationIds: last ? [...last.promptIds, ...last.responseIds] : promptIds,
    responseTokens: turns.reduce((sum, t) => sum + t.responseIds.length, 0),
    durationMs: clock.now() - startedAtMs,
  };
}

function recordTurn(
  options: RunAgentLoopOptions,
  index: number,
  promptIds: number[],
  generated: GenerateResult,
  parsed: ParsedChatResponse,
  { text, sampling }: { text: string; sampling: SamplingParams },
): AgentTurn {
  const turn: AgentTurn = {
    index,
    promptIds,
    responseIds: [...generated.responseIds],
    logprobs: [...generated.logprobs],
    backendId: generated.backendId,
    weightVersion: generated.weightVersion,
    weightVersionSpans: generated.weightVersionSpans ?? null,
    // null = the backend did not say; kept unknown, never recorded as a 0 % cache hit.
    cachedPromptTokens: generated.cachedPromptTokens,
    latencyMs: generated.latencyMs,
    finishReason: generated.finishReason,
    text,
    sampling: describeSampling(sampling),
    thinking: parsed.thinking,
    content: parsed.content,
    toolCalls: parsed.toolCalls,
  };
  options.recorder?.turn({
    index,
    promptIds: turn.promptIds,
    responseIds: turn.responseIds,
    logprobs: turn.logprobs,
    backendId: turn.backendId,
    weightVersion: turn.weightVersion,
    weightVersionSpans: turn.weightVersionSpans,
    cachedPromptTokens: turn.cachedPromptTokens,
    latencyMs: turn.latencyMs,
    finishReason: turn.finishReason,
    text,
    sampling: turn.sampling,
  });
  return turn;
}

function recordToolCall(
  options: RunAgentLoopOptions,
  turnIndex: number,
  index: number,
  call: ChatToolCall,
  result: ToolResult,
  maxChars: number,
): void {
  options.recorder?.toolCall({
    turnIndex,
    index,
    name: call.name,
    arguments: call.arguments,
    output: truncateMiddle(result.output, maxChars),
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    isError: result.isError,
  });
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
