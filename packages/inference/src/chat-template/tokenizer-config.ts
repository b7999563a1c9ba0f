import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** The parts of a Hugging Face `tokenizer_config.json` that chat templating reads. */
export interface TokenizerConfig {
  /** One Jinja template, or named templates (`default`, `tool_use`, …) as newer configs list them. */
  chat_template?: string | readonly { name: string; template: string }[];
  bos_token?: string | { content: string } | null;
  eos_token?: string | { content: string } | null;
  [key: string]: unknown;
}

/** A special token as the config gives it (plain text or an `AddedToken` object), as text. */
export function specialTokenText(token: TokenizerConfig["bos_token"]): string | undefined {
  if (token == null) return undefined;
  return typeof token === "string" ? token : token.content;
}

/** Where newer Hugging Face directories keep the template, beside (not inside) the config. */
const TEMPLATE_FILE = "chat_template.jinja";

/**
 * Reads `tokenizer_config.json` from a tokenizer directory (the files vLLM and SGLang load). A
 * `chat_template.jinja` beside it is the template, as transformers loads it (it wins over the
 * config's `chat_template`). A missing or unparsable config is an error that names the directory.
 */
export async function readTokenizerConfig(directory: string): Promise<TokenizerConfig> {
  const config = await readConfigFile(directory);
  const template = await readFile(join(directory, TEMPLATE_FILE), "utf8").catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new Error(`${join(directory, TEMPLATE_FILE)} cannot be read: ${(error as Error).message}`);
  });
  return template === null ? config : { ...config, chat_template: template };
}

async function readConfigFile(directory: string): Promise<TokenizerConfig> {
  const path = join(directory, "tokenizer_config.json");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`No tokenizer_config.json in ${directory}: ${(error as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error("not a JSON object");
    }
    return parsed as TokenizerConfig;
  } catch (error) {
    throw new Error(`${path} is not a valid tokenizer config: ${(error as Error).message}`);
  }
}
