import {
  createGptOssModelFamily,
  createQwen3ModelFamily,
  loadDirectoryModelFamily,
  type ModelFamilyAdapter,
} from "@raas/inference";
import { assertNever } from "@raas/shared";

/** The family the simulator serves: a built-in one, or a model's own tokenizer directory. */
export type SimulatorModelFamilyConfig =
  | { kind: "qwen3" }
  | { kind: "gpt-oss" }
  | {
      kind: "tokenizer-dir";
      /** Absolute path of a Hugging Face tokenizer directory (`tokenizer.json`, `tokenizer_config.json`). */
      directory: string;
    };

/**
 * Loads the served family once, at start. A tokenizer directory is read with the model's own chat
 * template; a directory that cannot serve throws an error naming the file at fault.
 */
export async function loadSimulatorModelFamily(
  config: SimulatorModelFamilyConfig,
): Promise<ModelFamilyAdapter> {
  switch (config.kind) {
    case "qwen3":
      return createQwen3ModelFamily();
    case "gpt-oss":
      return createGptOssModelFamily();
    case "tokenizer-dir":
      return (await loadDirectoryModelFamily(config.directory)).family;
    default:
      return assertNever(config, "simulator model family");
  }
}
