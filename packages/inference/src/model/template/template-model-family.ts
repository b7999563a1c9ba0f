import { basename, dirname, join } from "node:path";
import { ChatTemplateError, compileChatTemplate } from "../../chat-template/jinja-chat-template";
import { type ModelFamilyProbe, probeChatTemplate } from "../../chat-template/model-family-probe";
import { readTokenizerConfig } from "../../chat-template/tokenizer-config";
import type { ChatMessage, ModelFamilyAdapter, PromptOptions, Tokenizer } from "../model-family.types";
import {
  loadDirectoryTokenizer,
  readGenerationEosIds,
  TokenizerFilesError,
} from "../tokenizer/tokenizer-files";
import { formatToolCallErrors } from "../tool-call-feedback";
import {
  renderTemplateAssistant,
  renderTemplateContinuation,
  type TemplateSurface,
} from "./template-continuation";
import { findEndOfTurn, findToolCallShape, listToolsInSystemPrompt } from "./template-conventions";
import { templateMessages, templateTools } from "./template-messages";
import { createTemplateResponseParser } from "./template-response-parser";

/** A model family read from a tokenizer directory, with what its template was found to do. */
export interface DirectoryModelFamily {
  family: ModelFamilyAdapter;
  probe: ModelFamilyProbe;
  /** The whole conversation as the template renders it (history re-rendered), for drift reports. */
  renderHistory(messages: readonly ChatMessage[], options: PromptOptions): string;
}

/** Directory names that say nothing about the model: the parent's name is used instead. */
const GENERIC_DIR_NAMES = new Set(["models", "model", "tokenizer", "tokenizers", "hf", "files"]);

/** A family's default name: its directory's (`Llama-3.1-8B-Instruct`), or its parent's for a generic one. */
function familyNameOf(directory: string): string {
  const name = basename(directory);
  return GENERIC_DIR_NAMES.has(name.toLowerCase()) ? basename(dirname(directory)) : name;
}

function thinkingOptions(enableThinking: boolean | undefined): Record<string, unknown> {
  return { enable_thinking: enableThinking ?? true };
}

/**
 * For templates without a tool role (Gemma's raise on one): a run of tool results becomes one user
 * message, results separated by a blank line, so the conversation keeps alternating.
 */
function toolResultsAsUser(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (message.role !== "tool") out.push(message);
    else if (last?.role === "user")
      out[out.length - 1] = { role: "user", content: `${last.content}\n\n${message.content}` };
    else out.push({ role: "user", content: message.content });
  }
  return out;
}

/** The first messages as the template can take them: without a system role, the system text opens the first user message. */
function foldSystem(messages: readonly ChatMessage[], supportsSystemRole: boolean): ChatMessage[] {
  const [first, second, ...rest] = messages;
  if (supportsSystemRole || first?.role !== "system") return [...messages];
  if (second?.role !== "user")
    return [{ role: "user", content: first.content }, ...(second ? [second] : []), ...rest];
  return [{ role: "user", content: `${first.content}\n\n${second.content}` }, ...rest];
}

function singleId(tokenizer: Tokenizer, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ids = tokenizer.encode(text);
  return ids.length === 1 ? ids[0] : undefined;
}

/**
 * The model family of a Hugging Face tokenizer directory (`tokenizer.json`, `tokenizer_config.json`
 * or `chat_template.jinja`, `generation_config.json` where present): first prompts rendered by the
 * model's own chat template, continuations appended after sampled tokens without re-rendering
 * them, tool calls and reasoning read in the formats the template was found to use. Capabilities
 * the template does not establish are listed in `probe.missing`, never guessed. Throws a
 * `ChatTemplateError` or `TokenizerFilesError` naming the file at fault.
 */
export async function loadDirectoryModelFamily(
  directory: string,
  options: { name?: string } = {},
): Promise<DirectoryModelFamily> {
  const modelName = options.name ?? familyNameOf(directory);
  const config = await readTokenizerConfig(directory);
  const probe = probeChatTemplate(config, join(directory, "tokenizer_config.json"));
  const tokenizer = await loadDirectoryTokenizer(directory, config);
  const compiled = compileChatTemplate(config, modelName);
  const render: TemplateSurface["render"] = (input) => compiled.render(input);
  const addedTokens = (tokenizer.addedTokens ?? []).map((token) => token.text);
  const endOfTurnText = findEndOfTurn(render, probe, addedTokens);
  const endOfTurnId = singleId(tokenizer, endOfTurnText) ?? singleId(tokenizer, probe.specialTokens.eos);
  if (endOfTurnId === undefined) {
    throw new TokenizerFilesError(
      `${directory}: no single token ends an assistant turn in the chat template, and the config names no end-of-sequence token`,
    );
  }
  const surface: TemplateSurface = {
    render,
    modelName,
    shape: findToolCallShape(render),
    endOfTurnText,
    supportsSystemRole: probe.supportsSystemRole,
  };
  // Checked once here, not mid-rollout: a template that cannot continue after a turn at all cannot
  // serve multi-turn agents; one that cannot take tool results after a turn gets them as user text.
  const canContinue = (messages: ChatMessage[]) => {
    try {
      renderTemplateContinuation(surface, messages, {
        hasEndOfTurn: true,
        templateOptions: thinkingOptions(true),
      });
      return true;
    } catch {
      return false;
    }
  };
  if (!canContinue([{ role: "user", content: "RaaS load check." }])) {
    throw new ChatTemplateError(
      `The chat template of ${modelName} cannot continue a conversation after an assistant turn without re-rendering it`,
    );
  }
  const hasToolRole =
    probe.rendersToolResults &&
    canContinue([{ role: "tool", content: "RaaS load check.", toolName: "probe" }]);
  const eosIds = [...(await readGenerationEosIds(directory)), singleId(tokenizer, probe.specialTokens.eos)];
  const stopTokenIds = [...new Set([endOfTurnId, ...eosIds.filter((id) => id !== undefined)])];
  const endMarkers = [...new Set([endOfTurnText, probe.specialTokens.eos].filter((t) => t !== undefined))];
  const parseResponse = createTemplateResponseParser({ ...probe, endMarkers });

  const renderMessages = (messages: readonly ChatMessage[], promptOptions: PromptOptions) => {
    const tools = promptOptions.tools ?? [];
    const templateOptions = thinkingOptions(promptOptions.enableThinking);
    // Tools the template ignores are listed in the system prompt, if the model has a call format
    // to use them with at all (else the probe's warning says so and nothing is invented).
    const isListed = !probe.rendersToolDefinitions && probe.toolCallFormat !== undefined && tools.length > 0;
    const offered = !isListed
      ? messages
      : listToolsInSystemPrompt(messages, tools, (parts) =>
          renderTemplateAssistant(surface, parts, templateOptions),
        );
    return render({
      messages: templateMessages(foldSystem(offered, probe.supportsSystemRole), surface.shape),
      ...(probe.rendersToolDefinitions && tools.length > 0 && { tools: templateTools(tools) }),
      addGenerationPrompt: true,
      templateOptions,
    });
  };
  const family: ModelFamilyAdapter = {
    family: modelName,
    tokenizer,
    endOfTurnId,
    stopTokenIds,
    renderPrompt: (messages, promptOptions = {}) => renderMessages(messages, promptOptions),
    renderContinuation: (messages, continuation) =>
      renderTemplateContinuation(surface, hasToolRole ? messages : toolResultsAsUser(messages), {
        hasEndOfTurn: continuation.hasEndOfTurn,
        templateOptions: thinkingOptions(continuation.enableThinking),
      }),
    renderAssistant: (parts) => renderTemplateAssistant(surface, parts, thinkingOptions(true)),
    parseResponse,
    formatToolCallErrors,
  };
  return { family, probe, renderHistory: renderMessages };
}
