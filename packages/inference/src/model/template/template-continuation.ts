import {
  ChatTemplateError,
  type ChatTemplateInput,
  type TemplateMessage,
} from "../../chat-template/jinja-chat-template";
import type { ChatMessage, ToolCall } from "../model-family.types";
import { type ToolCallShape, templateAssistant, templateMessages } from "./template-messages";

/** A compiled chat template. */
export type TemplateRender = (input: ChatTemplateInput) => string;

/** What the continuation and assistant renders need to know about the template. */
export interface TemplateSurface {
  render: TemplateRender;
  modelName: string;
  shape: ToolCallShape;
  /** Text of the token that ends an assistant turn in the template's renders; undefined when none does. */
  endOfTurnText: string | undefined;
  supportsSystemRole: boolean;
}

// Distinctive texts, so that no template could render them by accident.
const ANCHOR_SYSTEM = "RaaS anchor: system prompt.";
const ANCHOR_USER = "RaaS anchor: the user asks.";
const ANCHOR_THINKING = "RaaS anchor: reasoning.";
const ANCHOR_CONTENT = "RaaS anchor: the assistant answers.";
const ANCHOR_ARGUMENT = "RaaS-anchor-argument";

function opening(surface: TemplateSurface): TemplateMessage[] {
  const user = { role: "user", content: ANCHOR_USER };
  return surface.supportsSystemRole ? [{ role: "system", content: ANCHOR_SYSTEM }, user] : [user];
}

/**
 * Assistant turns to stand in for the sampled one, most faithful first: tool results follow the
 * calls that asked for them (one call per result, or one call where the template allows only one),
 * with reasoning so that templates which show reasoning only in the latest turn render the turn
 * alike whether or not something follows it.
 */
function anchorTurns(messages: readonly ChatMessage[]): Parameters<typeof templateAssistant>[0][] {
  const calls: ToolCall[] = messages
    .filter((message) => message.role === "tool")
    .map((message) => ({
      name: (message as { toolName?: string }).toolName ?? "tool",
      arguments: { note: ANCHOR_ARGUMENT },
    }));
  const plain = [{ thinking: ANCHOR_THINKING, content: ANCHOR_CONTENT }, { content: ANCHOR_CONTENT }];
  if (calls.length === 0) return plain;
  const withCalls = [calls, calls.slice(0, 1)].flatMap((toolCalls) => [
    { thinking: ANCHOR_THINKING, content: "", toolCalls },
    { content: "", toolCalls },
  ]);
  return [...withCalls, ...plain];
}

function tryRender(render: TemplateRender, input: ChatTemplateInput): string | undefined {
  try {
    return render(input);
  } catch {
    return undefined;
  }
}

/**
 * The text that follows a sampled assistant turn: what closes the turn (unless the model already
 * ended it), `messages`, and the next generation prompt, exactly as the template renders them after
 * an assistant turn. Found by rendering a stand-in conversation with and without `messages`: the
 * longer render must extend the shorter one, so earlier turns are never re-rendered; the sampled
 * turn itself keeps the model's own tokens. Throws a `ChatTemplateError` when no stand-in works.
 */
export function renderTemplateContinuation(
  surface: TemplateSurface,
  messages: readonly ChatMessage[],
  options: { hasEndOfTurn: boolean; templateOptions: Record<string, unknown> },
): string {
  const start = opening(surface);
  const observed = templateMessages(messages, surface.shape);
  const renders = anchorTurns(messages).map((anchor) => {
    const history = [...start, templateAssistant(anchor, surface.shape)];
    const { templateOptions } = options;
    const before = tryRender(surface.render, {
      messages: history,
      addGenerationPrompt: false,
      templateOptions,
    });
    const after = tryRender(surface.render, {
      messages: [...history, ...observed],
      addGenerationPrompt: true,
      templateOptions,
    });
    return { before, after };
  });
  const end = surface.endOfTurnText;
  for (const { before, after } of renders) {
    if (before === undefined || after === undefined || !after.startsWith(before)) continue;
    const closed = before.trimEnd();
    const spacing = before.slice(closed.length);
    const closing = end !== undefined && closed.endsWith(end) ? end + spacing : spacing;
    return (options.hasEndOfTurn ? spacing : closing) + after.slice(before.length);
  }
  // Templates that render the latest turn unlike an earlier one (Qwen3 drops reasoning before the
  // last user message): what follows the stand-in turn's end-of-turn token is the continuation.
  for (const { after } of renders) {
    const marker =
      after === undefined
        ? -1
        : Math.max(after.lastIndexOf(ANCHOR_CONTENT), after.lastIndexOf(ANCHOR_ARGUMENT));
    const closeAt = end === undefined || marker === -1 ? -1 : (after as string).indexOf(end, marker);
    if (closeAt === -1 || after === undefined || end === undefined) continue;
    const rest = after.slice(closeAt + end.length);
    return (options.hasEndOfTurn ? "" : end) + rest;
  }
  throw new ChatTemplateError(
    `The chat template of ${surface.modelName} cannot continue a conversation after an assistant turn ` +
      `with ${messages.map((message) => message.role).join(", ")} messages without re-rendering earlier turns`,
  );
}

/**
 * The text of an assistant turn as the template renders it after the generation prompt, without
 * the end-of-turn token: what the model would sample. Throws a `ChatTemplateError` when the
 * template renders the turn's opening differently from its generation prompt.
 */
export function renderTemplateAssistant(
  surface: TemplateSurface,
  parts: Parameters<typeof templateAssistant>[0],
  templateOptions: Record<string, unknown>,
): string {
  const body = renderAssistantBody(surface, parts, templateOptions);
  const hasBoth = (parts.toolCalls?.length ?? 0) > 0 && (parts.content ?? "") !== "";
  if (!hasBoth) return body;
  // Templates that render either the content or the calls of a turn (DeepSeek V3's drops the
  // calls): the model writes its content, then the calls as the template renders them alone.
  const withoutCalls = renderAssistantBody(surface, { ...parts, toolCalls: [] }, templateOptions);
  if (body !== withoutCalls) return body;
  return body + renderAssistantBody(surface, { ...parts, thinking: null, content: "" }, templateOptions);
}

function renderAssistantBody(
  surface: TemplateSurface,
  parts: Parameters<typeof templateAssistant>[0],
  templateOptions: Record<string, unknown>,
): string {
  const start = opening(surface);
  const prompt = surface.render({ messages: start, addGenerationPrompt: true, templateOptions });
  const whole = surface.render({
    messages: [...start, templateAssistant(parts, surface.shape)],
    addGenerationPrompt: false,
    templateOptions,
  });
  if (!whole.startsWith(prompt)) {
    throw new ChatTemplateError(
      `The chat template of ${surface.modelName} renders an assistant turn that does not start with its generation prompt`,
    );
  }
  const body = whole.slice(prompt.length).trimEnd();
  const end = surface.endOfTurnText;
  return end !== undefined && body.endsWith(end) ? body.slice(0, -end.length) : body;
}
