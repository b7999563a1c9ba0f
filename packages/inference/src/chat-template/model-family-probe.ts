import { join } from "node:path";
import {
  ChatTemplateError,
  type ChatTemplateInput,
  compileChatTemplate,
  type TemplateMessage,
} from "./jinja-chat-template";
import {
  detectReasoningFormat,
  detectToolCallFormat,
  PROBE_TOOL_ARGUMENTS,
  PROBE_TOOL_NAME,
  type ReasoningFormat,
  type ToolCallFormat,
} from "./probe-markers";
import { type ProbedSpecialTokens, probeSpecialTokens } from "./probe-special-tokens";
import { readTokenizerConfig, type TokenizerConfig } from "./tokenizer-config";

/** A capability a model family needs for agent rollouts that the probe could not establish. */
type ProbeCapability =
  | "system-role"
  | "tool-definitions"
  | "tool-call-format"
  | "tool-results"
  | "reasoning-format"
  | "thinking-toggle";

/** What a chat template was found to do, from rendering probe conversations through it. */
export interface ModelFamilyProbe {
  /** The file the template came from (or the name the caller gave). */
  source: string;
  specialTokens: ProbedSpecialTokens;
  /** The text the template puts before each role's content, where the probe could isolate it. */
  roleHeaders: { system?: string; user?: string; assistant?: string };
  supportsSystemRole: boolean;
  rendersToolDefinitions: boolean;
  /** The recognised format of a rendered tool call; undefined when none is known. */
  toolCallFormat?: ToolCallFormat;
  rendersToolResults: boolean;
  /** The recognised markers around rendered reasoning; undefined when none are known. */
  reasoningFormat?: ReasoningFormat;
  /** True when `enable_thinking` true and false render different prompts. */
  hasThinkingToggle: boolean;
  /** Every capability not established, with a reason a person can act on. Empty when all are known. */
  missing: { capability: ProbeCapability; reason: string }[];
}

// Distinctive texts, so that finding them in a render proves where the template put them.
const USER = "Probe user asks: hello?";
const USER_2 = "Probe user follows up.";
const ASSISTANT = "Probe assistant answers.";
const SYSTEM = "Probe system prompt.";
const REASONING = "Probe reasoning step.";
const TOOL_RESULT = "Probe tool result: sunny.";
const TOOL_DESCRIPTION = "Probe tool: looks up the weather of a city.";

const TOOLS: NonNullable<ChatTemplateInput["tools"]> = [
  {
    type: "function",
    function: {
      name: PROBE_TOOL_NAME,
      description: TOOL_DESCRIPTION,
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];

type Render = (input: ChatTemplateInput) => { text: string } | { error: string };

/**
 * Assistant tool-call messages in the shapes templates expect: some read `arguments` as an object
 * (Qwen3, Llama 3.1), some concatenate it as a string (DeepSeek V3); some render the calls only
 * when `content` is none (DeepSeek V3), hence a null content despite the message type.
 */
function toolCallMessages(): TemplateMessage[] {
  const variants: TemplateMessage[] = [];
  for (const content of ["", null]) {
    for (const args of [PROBE_TOOL_ARGUMENTS, JSON.stringify(PROBE_TOOL_ARGUMENTS)]) {
      variants.push({
        role: "assistant",
        content: content as string,
        tool_calls: [{ type: "function", function: { name: PROBE_TOOL_NAME, arguments: args } }],
      });
    }
  }
  return variants;
}

/** `whole` without `prefix` at its start, or undefined when it does not start with it. */
function afterPrefix(whole: string, prefix: string): string | undefined {
  return whole.startsWith(prefix) ? whole.slice(prefix.length) : undefined;
}

function between(text: string, from: string, to: string): string | undefined {
  const start = text.indexOf(from);
  const end = start === -1 ? -1 : text.indexOf(to, start + from.length);
  return end === -1 ? undefined : text.slice(start + from.length, end);
}

function withoutBos(text: string, bos: string | undefined): string {
  return bos && text.startsWith(bos) ? text.slice(bos.length) : text;
}

/**
 * Role headers from differences between renders: the assistant header is what the generation
 * prompt adds; the user header is what precedes a first user message, when a later user message
 * has it too (else what follows an assistant turn's end); the system header precedes its content.
 */
function probeRoleHeaders(render: Render, bos: string | undefined): ModelFamilyProbe["roleHeaders"] {
  const headers: ModelFamilyProbe["roleHeaders"] = {};
  const user = [{ role: "user", content: USER }];
  const closed = render({ messages: user, addGenerationPrompt: false });
  const open = render({ messages: user, addGenerationPrompt: true });
  if ("text" in closed && "text" in open) {
    const assistant = afterPrefix(open.text, closed.text);
    if (assistant) headers.assistant = assistant;
    const turns = render({
      messages: [...user, { role: "assistant", content: ASSISTANT }, { role: "user", content: USER_2 }],
      addGenerationPrompt: false,
    });
    const assistantToUser = "text" in turns ? between(turns.text, ASSISTANT, USER_2) : undefined;
    const firstUserHeader = withoutBos(closed.text.slice(0, closed.text.indexOf(USER)), bos);
    if (firstUserHeader && assistantToUser?.endsWith(firstUserHeader)) {
      headers.user = firstUserHeader;
    } else if ("text" in turns && assistant && assistantToUser) {
      const userToAssistant = between(turns.text, USER, ASSISTANT);
      const turnEnd = userToAssistant?.endsWith(assistant)
        ? userToAssistant.slice(0, -assistant.length)
        : undefined;
      const userHeader = turnEnd === undefined ? undefined : afterPrefix(assistantToUser, turnEnd);
      if (userHeader) headers.user = userHeader;
    }
  }
  const system = render({ messages: [{ role: "system", content: SYSTEM }, ...user] });
  if ("text" in system && system.text.includes(SYSTEM)) {
    const header = withoutBos(system.text.slice(0, system.text.indexOf(SYSTEM)), bos);
    if (header) headers.system = header;
  }
  return headers;
}

function renderOrThrow(render: Render, input: ChatTemplateInput, what: string, source: string): string {
  const result = render(input);
  if ("error" in result) throw new ChatTemplateError(`${source}: ${what} does not render: ${result.error}`);
  return result.text;
}

/**
 * Renders probe conversations through the chat template of `config` and reports what it does:
 * special tokens, role headers, system role, tools, tool-call and reasoning formats. Formats are
 * recognised by their markers in the render, never by the model's name; anything not recognised
 * is listed in `missing`. Throws a `ChatTemplateError` naming `source` when there is no template,
 * it does not parse, or a plain chat does not render.
 */
export function probeChatTemplate(config: TokenizerConfig, source: string): ModelFamilyProbe {
  const template = compileChatTemplate(config, source);
  const render: Render = (input) => {
    try {
      return { text: template.render(input) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const missing: ModelFamilyProbe["missing"] = [];
  const renders: string[] = [];
  const user: TemplateMessage = { role: "user", content: USER };

  const plain = renderOrThrow(render, { messages: [user] }, "a plain chat (one user message)", source);
  if (!plain.includes(USER)) {
    throw new ChatTemplateError(`${source}: the chat template drops the user's message`);
  }
  renders.push(plain);

  const system = render({ messages: [{ role: "system", content: SYSTEM }, user] });
  const supportsSystemRole = "text" in system && system.text.includes(SYSTEM);
  if ("text" in system) renders.push(system.text);
  if (!supportsSystemRole) {
    missing.push({
      capability: "system-role",
      reason:
        "error" in system
          ? `a system message makes the template fail: ${system.error}`
          : "the template drops a system message's content",
    });
  }

  const offered = render({ messages: [user], tools: TOOLS });
  const rendersToolDefinitions =
    "text" in offered &&
    offered.text !== plain &&
    offered.text.includes(PROBE_TOOL_NAME) &&
    offered.text.includes(TOOL_DESCRIPTION);
  if ("text" in offered) renders.push(offered.text);
  if (!rendersToolDefinitions) {
    missing.push({
      capability: "tool-definitions",
      reason:
        "error" in offered
          ? `offering tools makes the template fail: ${offered.error}`
          : "the template ignores `tools`: the tools offered do not appear in the prompt",
    });
  }

  let toolCallFormat: ToolCallFormat | undefined;
  let rendersToolResults = false;
  let toolCallRendered = false;
  for (const call of toolCallMessages()) {
    const messages = [user, call, { role: "tool", content: TOOL_RESULT, name: PROBE_TOOL_NAME }];
    const result = render({ messages, tools: TOOLS });
    if (!("text" in result)) continue;
    toolCallRendered = true;
    renders.push(result.text);
    rendersToolResults ||= result.text.includes(TOOL_RESULT);
    toolCallFormat = detectToolCallFormat(result.text.slice(result.text.indexOf(USER) + USER.length));
    if (toolCallFormat) break;
  }
  if (!toolCallFormat) {
    missing.push({
      capability: "tool-call-format",
      reason: toolCallRendered
        ? "no known tool-call format (hermes-json, llama3-json, deepseek-v3, harmony) in a rendered assistant tool call"
        : "an assistant message with tool calls followed by a tool result makes the template fail",
    });
  }
  if (!rendersToolResults) {
    missing.push({
      capability: "tool-results",
      reason: "the template does not render a tool message's content",
    });
  }

  const reasoningTurn = render({
    messages: [
      user,
      // `reasoning_content` for Qwen3/DeepSeek templates, `thinking` for harmony (gpt-oss).
      { role: "assistant", content: ASSISTANT, reasoning_content: REASONING, thinking: REASONING },
    ],
    addGenerationPrompt: false,
    templateOptions: { enable_thinking: true },
  });
  if ("text" in reasoningTurn) renders.push(reasoningTurn.text);
  const reasoningFormat =
    "text" in reasoningTurn ? detectReasoningFormat(reasoningTurn.text, REASONING) : undefined;
  if (!reasoningFormat) {
    missing.push({
      capability: "reasoning-format",
      reason:
        "error" in reasoningTurn
          ? `an assistant message with reasoning makes the template fail: ${reasoningTurn.error}`
          : "no known reasoning markers (<think>, harmony analysis channel) around rendered reasoning content",
    });
  }

  const [thinkingOn, thinkingOff] = [true, false].map((enable_thinking) =>
    render({ messages: [user], templateOptions: { enable_thinking } }),
  );
  const hasThinkingToggle =
    thinkingOn !== undefined &&
    thinkingOff !== undefined &&
    "text" in thinkingOn &&
    "text" in thinkingOff &&
    thinkingOn.text !== thinkingOff.text;
  for (const result of [thinkingOn, thinkingOff]) if (result && "text" in result) renders.push(result.text);
  if (!hasThinkingToggle) {
    missing.push({
      capability: "thinking-toggle",
      reason:
        "enable_thinking true and false render the same prompt: thinking cannot be switched by the template",
    });
  }

  const specialTokens = probeSpecialTokens(config, renders);
  return {
    source,
    specialTokens,
    roleHeaders: probeRoleHeaders(render, specialTokens.bos),
    supportsSystemRole,
    rendersToolDefinitions,
    ...(toolCallFormat && { toolCallFormat }),
    rendersToolResults,
    ...(reasoningFormat && { reasoningFormat }),
    hasThinkingToggle,
    missing,
  };
}

/** Probes the chat template of a tokenizer directory (its `tokenizer_config.json`); see `probeChatTemplate`. */
export async function probeTokenizerDir(directory: string): Promise<ModelFamilyProbe> {
  return probeChatTemplate(await readTokenizerConfig(directory), join(directory, "tokenizer_config.json"));
}
