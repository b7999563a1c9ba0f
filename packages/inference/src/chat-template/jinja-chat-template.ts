import { Template } from "@huggingface/jinja";
import { readTokenizerConfig, specialTokenText, type TokenizerConfig } from "./tokenizer-config";

/** A chat message in the shape Hugging Face chat templates read (OpenAI-style tool calls). */
export interface TemplateMessage {
  role: string;
  content: string;
  /** Reasoning kept apart from `content` (Qwen3's and DeepSeek's templates read it). */
  reasoning_content?: string;
  tool_calls?: { type: "function"; function: { name: string; arguments: unknown } }[];
  [key: string]: unknown;
}

/** A tool as `apply_chat_template(tools=…)` takes it. */
interface TemplateTool {
  type: "function";
  function: { name: string; description?: string; parameters?: unknown };
}

export interface ChatTemplateInput {
  messages: readonly TemplateMessage[];
  tools?: readonly TemplateTool[];
  /** Opens the assistant turn after the messages. Default true. */
  addGenerationPrompt?: boolean;
  /** Extra template variables (`enable_thinking`, `reasoning_effort`, …), as `apply_chat_template`'s kwargs. */
  templateOptions?: Record<string, unknown>;
}

/** A chat template that could not be found, parsed or rendered; the message names the model. */
export class ChatTemplateError extends Error {
  override readonly name = "ChatTemplateError";
}

function selectTemplate(config: TokenizerConfig, modelName: string, hasTools: boolean): string {
  const template = config.chat_template;
  if (typeof template === "string") return template;
  if (Array.isArray(template)) {
    const byName = new Map(template.map((entry) => [entry.name, entry.template]));
    const chosen = (hasTools && byName.get("tool_use")) || byName.get("default");
    if (chosen) return chosen;
  }
  throw new ChatTemplateError(`The tokenizer config of ${modelName} has no usable chat_template`);
}

function parseTemplate(source: string, modelName: string): Template {
  try {
    return new Template(source);
  } catch (error) {
    throw new ChatTemplateError(
      `The chat template of ${modelName} does not parse: ${(error as Error).message}`,
    );
  }
}

/**
 * A compiled chat template of one model. `render` builds the prompt text as Hugging Face's
 * `apply_chat_template(tokenize=False)` does: `bos_token`/`eos_token` from the config,
 * `raise_exception` in the template becomes a `ChatTemplateError`.
 */
export function compileChatTemplate(
  config: TokenizerConfig,
  modelName: string,
): { render(input: ChatTemplateInput): string } {
  const compiled = parseTemplate(selectTemplate(config, modelName, false), modelName);
  const compiledTools = Array.isArray(config.chat_template)
    ? parseTemplate(selectTemplate(config, modelName, true), modelName)
    : compiled;
  return {
    render(input) {
      const hasTools = (input.tools?.length ?? 0) > 0;
      const template = hasTools ? compiledTools : compiled;
      try {
        return template.render({
          ...input.templateOptions,
          messages: input.messages,
          ...(hasTools && { tools: input.tools }),
          add_generation_prompt: input.addGenerationPrompt ?? true,
          bos_token: specialTokenText(config.bos_token) ?? "",
          eos_token: specialTokenText(config.eos_token) ?? "",
        });
      } catch (error) {
        throw new ChatTemplateError(
          `The chat template of ${modelName} failed to render: ${(error as Error).message}`,
        );
      }
    },
  };
}

/** The chat template of a tokenizer directory (its `tokenizer_config.json`), named after the directory unless told. */
export async function loadChatTemplate(
  directory: string,
  modelName: string = directory,
): Promise<{ render(input: ChatTemplateInput): string }> {
  return compileChatTemplate(await readTokenizerConfig(directory), modelName);
}
