import type { EngineLogger } from "@raas/engine";
import {
  createGptOssModelFamily,
  createQwen3ModelFamily,
  loadDirectoryModelFamily,
  type ModelFamilyAdapter,
} from "@raas/inference";
import { assertNever } from "@raas/shared";

/**
 * How the policy model's chat is tokenized: a built-in family (Qwen3's hand-written template,
 * gpt-oss's harmony format) or the model's own files (`tokenizer.json`, `tokenizer_config.json` or
 * `chat_template.jinja`, `generation_config.json`), as vLLM and SGLang load them.
 */
export type ModelFamilyConfig =
  | { kind: "qwen3" }
  | { kind: "gpt-oss" }
  | {
      kind: "tokenizer-dir";
      /** Absolute path of the model's tokenizer directory. */
      directory: string;
      /** Family name in logs and turns. Default the directory's name. */
      name?: string;
    };

/**
 * The model family the agent handlers and the gateway render and parse with. A tokenizer directory
 * is read and its template probed once, at start: a directory that cannot serve fails the start
 * with the file at fault; capabilities the template lacks are logged, one warning each.
 */
export async function loadModelFamily(
  config: ModelFamilyConfig,
  logger: EngineLogger,
): Promise<ModelFamilyAdapter> {
  switch (config.kind) {
    case "qwen3":
      return createQwen3ModelFamily();
    case "gpt-oss":
      return createGptOssModelFamily();
    case "tokenizer-dir": {
      const { family, probe } = await loadDirectoryModelFamily(config.directory, {
        ...(config.name !== undefined && { name: config.name }),
      });
      for (const { capability, reason } of probe.missing) {
        logger.warn({ family: family.family, capability }, `model family: ${reason}`);
      }
      logger.info(
        {
          family: family.family,
          directory: config.directory,
          toolCallFormat: probe.toolCallFormat ?? null,
          reasoningFormat: probe.reasoningFormat ?? null,
          stopTokenIds: family.stopTokenIds,
        },
        "model family loaded from its tokenizer directory",
      );
      return family;
    }
    default:
      return assertNever(config, "model family");
  }
}
