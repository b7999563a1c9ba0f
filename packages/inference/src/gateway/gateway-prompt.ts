import type { TOpenAiMessage } from "@raas/shared";
import type { ModelFamilyAdapter, ToolSpec } from "../model/model-family.types";
import { isTurnClosed } from "../model/turn-end";
import { messageKey, toChatMessage, toolNamesOfCalls } from "./openai-messages";

/** What the prompt builder remembers of an earlier call of the session. */
export interface SessionCall {
  id: string;
  /** `messageKey` of each request message. */
  messageKeys: readonly string[];
  /** `messageKey` of the assistant message the gateway answered with. */
  answerKey: string;
  /** Ids of the tool calls in that answer. */
  toolCallIds: readonly string[];
  toolsKey: string;
  enableThinking: boolean;
  promptIds: readonly number[];
  responseIds: readonly number[];
}

export interface GatewayPrompt {
  promptIds: number[];
  /** The earlier call whose answer the history ended with; null when none is recognised. */
  parentCallId: string | null;
  /** True when the prompt is that call's prompt + sampled ids + newly templated ids (token-in/token-out). */
  isContinuation: boolean;
  /** `messageKey` of each request message and the tools' key, as `SessionCall` keeps them. */
  messageKeys: string[];
  toolsKey: string;
}

/**
 * Token ids of a chat request. When the messages are an earlier call's messages, then that call's
 * answer as the gateway returned it, then new messages (tool results, user turns), the prompt is
 * that call's prompt ids + its **sampled** ids + the template's ids for the new messages — never a
 * re-tokenization of what the model wrote. Anything else (a rewritten or truncated history, an
 * edited answer, other tools) is rendered whole with the chat template; the trace certificate then
 * shows where it stopped continuing the earlier call.
 */
export function buildGatewayPrompt(input: {
  family: ModelFamilyAdapter;
  messages: readonly TOpenAiMessage[];
  tools: readonly ToolSpec[];
  enableThinking: boolean;
  history: readonly SessionCall[];
}): GatewayPrompt {
  const { family, messages, tools, enableThinking, history } = input;
  const keys = messages.map((message, i) => messageKey(message, i));
  const toolsKey = JSON.stringify(tools);
  const parent = findContinuedCall(keys, toolsKey, enableThinking, history);
  const toolNames = toolNamesOfCalls(messages);
  if (parent) {
    const rest = messages.slice(parent.messageKeys.length + 1);
    const text = family.renderContinuation(
      rest.map((message, i) => toChatMessage(message, parent.messageKeys.length + 1 + i, toolNames)),
      { hasEndOfTurn: isTurnClosed(family, parent.responseIds.at(-1)), enableThinking },
    );
    return {
      promptIds: [...parent.promptIds, ...parent.responseIds, ...family.tokenizer.encode(text)],
      parentCallId: parent.id,
      isContinuation: true,
      messageKeys: keys,
      toolsKey,
    };
  }
  const text = family.renderPrompt(
    messages.map((message, i) => toChatMessage(message, i, toolNames)),
    { tools, enableThinking },
  );
  return {
    promptIds: family.tokenizer.encode(text),
    parentCallId: findAnsweredCall(messages, keys, history),
    isContinuation: false,
    messageKeys: keys,
    toolsKey,
  };
}

/** The latest, longest earlier call whose messages + answer begin `keys` (system messages never follow). */
function findContinuedCall(
  keys: readonly string[],
  toolsKey: string,
  enableThinking: boolean,
  history: readonly SessionCall[],
): SessionCall | null {
  let best: SessionCall | null = null;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const call = history[i] as SessionCall;
    const length = call.messageKeys.length;
    if (best && length <= best.messageKeys.length) continue;
    if (call.toolsKey !== toolsKey || call.enableThinking !== enableThinking) continue;
    if (keys.length <= length || keys[length] !== call.answerKey) continue;
    if (!call.messageKeys.every((key, k) => keys[k] === key)) continue;
    if (keys.slice(length + 1).some((key) => key.startsWith('["system"'))) continue;
    best = call;
  }
  return best;
}

/** The call that produced the history's last assistant message (by tool-call id, else by text). */
function findAnsweredCall(
  messages: readonly TOpenAiMessage[],
  keys: readonly string[],
  history: readonly SessionCall[],
): string | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i] as TOpenAiMessage;
    if (message.role !== "assistant") continue;
    // Ids are unique per answer; two calls can answer with the same text (parallel sub-agents).
    const ids = new Set((message.tool_calls ?? []).map((call) => call.id));
    const byId = history.findLast((call) => call.toolCallIds.some((id) => ids.has(id)));
    if (byId) return byId.id;
    return history.findLast((call) => call.answerKey === keys[i])?.id ?? null;
  }
  return null;
}
