import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { TokenizerLoader } from "@lenml/tokenizers";
import { readTokenizerConfig, type TokenizerConfig } from "../../chat-template/tokenizer-config";
import type { Tokenizer } from "../model-family.types";
import { type LibraryTokenizer, wrapLibraryTokenizer } from "./library-tokenizer";

/** A tokenizer directory whose files are missing, unreadable or not a tokenizer; the message names the file. */
export class TokenizerFilesError extends Error {
  override readonly name = "TokenizerFilesError";
}

async function readJsonObject(path: string, what: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new TokenizerFilesError(`${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch (error) {
    throw new TokenizerFilesError(`${path} is not valid JSON (${what}): ${(error as Error).message}`);
  }
  throw new TokenizerFilesError(`${path} is not a JSON object (${what})`);
}

/**
 * The library's tokenizer of a Hugging Face tokenizer directory (`tokenizer.json` with `config`
 * read from its `tokenizer_config.json`), as vLLM and SGLang load it for the model.
 */
export async function loadLibraryTokenizer(
  directory: string,
  config: TokenizerConfig,
): Promise<LibraryTokenizer> {
  const path = join(directory, "tokenizer.json");
  const tokenizerJSON = await readJsonObject(path, "the tokenizer");
  if (!tokenizerJSON) {
    throw new TokenizerFilesError(
      `No tokenizer.json in ${directory}: a model directory needs the tokenizer.json that vLLM loads`,
    );
  }
  try {
    const inner: LibraryTokenizer = TokenizerLoader.fromPreTrained({
      tokenizerJSON,
      tokenizerConfig: config,
    } as never);
    return inner;
  } catch (error) {
    throw new TokenizerFilesError(`${path} does not load as a tokenizer: ${(error as Error).message}`);
  }
}

/** The tokenizer of a Hugging Face tokenizer directory: the library's, with our fast paths where they are exact. */
export async function loadDirectoryTokenizer(directory: string, config: TokenizerConfig): Promise<Tokenizer> {
  return wrapLibraryTokenizer(await loadLibraryTokenizer(directory, config));
}

/**
 * A tokenizer directory's tokenizer as RaaS encodes with it, and the library's own
 * `encode(text, { add_special_tokens: false })` on an instance of its own (no cache shared): the
 * baseline that `npm run bench -- tokenizer` measures each family against.
 */
export async function loadDirectoryTokenizerWithBaseline(
  directory: string,
): Promise<{ tokenizer: Tokenizer; libraryEncode: (text: string) => number[] }> {
  const config = await readTokenizerConfig(directory);
  const tokenizer = await loadDirectoryTokenizer(directory, config);
  const library = await loadLibraryTokenizer(directory, config);
  return { tokenizer, libraryEncode: (text) => library.encode(text, { add_special_tokens: false }) };
}

/** The end-of-sequence ids of `generation_config.json` (a number or a list), when the directory has one. */
export async function readGenerationEosIds(directory: string): Promise<number[]> {
  const config = await readJsonObject(join(directory, "generation_config.json"), "the generation config");
  const eos = config?.eos_token_id;
  const ids = Array.isArray(eos) ? eos : [eos];
  return ids.filter((id): id is number => Number.isInteger(id));
}
