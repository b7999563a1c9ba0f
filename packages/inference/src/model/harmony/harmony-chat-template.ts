import type { ChatMessage, ToolCall, ToolSpec } from "../model-family.types";
import { renderHarmonyToolsSection } from "./harmony-tool-namespace";

export type ReasoningEffort = "low" | "medium" | "high";

/** What the system message says; the identity stays ChatGPT's, as the harmony spec asks. */
interface HarmonySystemOptions {
  reasoningEffort: ReasoningEffort;
  /** `YYYY-MM` (gpt-oss: `2024-06`). */
  knowledgeCutoff: string;
}

/** The model's generation header: its output starts with `<|channel|>`. */
export const HARMONY_GENERATION_PROMPT = "<|start|>assistant";

/**
 * The system message: identity, knowledge cutoff, reasoning effort and the valid channels, plus the
 * note that function calls go to the commentary channel when there are tools. No current date: a
 * rendering must not depend on the day it runs (prompts are compared and cached by their ids).
 */
function renderSystemMessage(options: HarmonySystemOptions, hasTools: boolean): string {
  const toolsNote = hasTools ? "\nCalls to these tools must go to the commentary channel: 'functions'." : "";
  return (
    "<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n" +
    `Knowledge cutoff: ${options.knowledgeCutoff}\n\nReasoning: ${options.reasoningEffort}\n\n` +
    `# Valid channels: analysis, commentary, final. Channel must be included for every message.${toolsNote}<|end|>`
  );
}

/** The developer message (our system prompt and the function tools); empty when there is neither. */
function renderDeveloperMessage(instructions: string | null, tools: readonly ToolSpec[]): string {
  const sections: string[] = [];
  if (instructions !== null) sections.push(`# Instructions\n\n${instructions}`);
  if (tools.length > 0) sections.push(renderHarmonyToolsSection(tools));
  return sections.length === 0 ? "" : `<|start|>developer<|message|>${sections.join("\n\n")}<|end|>`;
}

function renderCall(call: ToolCall): string {
  return `<|channel|>commentary to=functions.${call.name} <|constrain|>json<|message|>${JSON.stringify(call.arguments)}<|call|>`;
}

/**
 * The messages of one assistant turn, each after the previous one's `<|start|>assistant`:
 * reasoning on the analysis channel, then either a preamble on the commentary channel and the
 * calls (each ends the sampling with `<|call|>`), or the answer on the final channel.
 * `finalEnd` is `<|return|>` for what the model emits and `<|end|>` for history (the spec's
 * normalization of stored messages).
 */
function renderAssistantMessages(
  parts: { thinking?: string | null; content?: string; toolCalls?: readonly ToolCall[] },
  finalEnd: "<|return|>" | "<|end|>",
): string {
  const messages: string[] = [];
  if (parts.thinking != null) messages.push(`<|channel|>analysis<|message|>${parts.thinking}<|end|>`);
  const calls = parts.toolCalls ?? [];
  const content = parts.content ?? "";
  if (calls.length === 0) messages.push(`<|channel|>final<|message|>${content}${finalEnd}`);
  else {
    if (content !== "") messages.push(`<|channel|>commentary<|message|>${content}<|end|>`);
    messages.push(...calls.map(renderCall));
  }
  return messages.join(HARMONY_GENERATION_PROMPT);
}

/** What the model emits after the generation header. */
export function renderHarmonyAssistantBody(parts: {
  thinking?: string | null;
  content?: string;
  toolCalls?: readonly ToolCall[];
}): string {
  return renderAssistantMessages(parts, "<|return|>");
}

/**
 * Renders messages with no separators between them (the spec's newlines are for reading only). A
 * tool result is addressed from `functions.NAME` to the assistant on the commentary channel; one
 * without a name (feedback on a call that had none) comes from the `tool` role. A system message
 * after the first is rendered as developer instructions.
 */
export function renderHarmonyMessages(messages: readonly ChatMessage[]): string {
  let out = "";
  for (const message of messages) {
    switch (message.role) {
      case "system":
        out += renderDeveloperMessage(message.content, []);
        break;
      case "user":
        out += `<|start|>user<|message|>${message.content}<|end|>`;
        break;
      case "assistant":
        out += HARMONY_GENERATION_PROMPT + renderAssistantMessages(message, "<|end|>");
        break;
      case "tool": {
        const author = message.toolName === undefined ? "tool" : `functions.${message.toolName}`;
        out += `<|start|>${author} to=assistant<|channel|>commentary<|message|>${message.content}<|end|>`;
        break;
      }
    }
  }
  return out;
}

/**
 * The opening prompt: the system message, a developer message with the first system message as
 * instructions and the tools, the other messages, and the generation header.
 */
export function renderHarmonyPrompt(
  messages: readonly ChatMessage[],
  options: { tools?: readonly ToolSpec[]; system: HarmonySystemOptions },
): string {
  const tools = options.tools ?? [];
  const first = messages[0];
  const instructions = first?.role === "system" ? first.content : null;
  const rest = first?.role === "system" ? messages.slice(1) : messages;
  return (
    renderSystemMessage(options.system, tools.length > 0) +
    renderDeveloperMessage(instructions, tools) +
    renderHarmonyMessages(rest) +
    HARMONY_GENERATION_PROMPT
  );
}
