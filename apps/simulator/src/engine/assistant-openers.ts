import type { ModelFamilyAdapter } from "@raas/inference";

type ChatMessage = Parameters<ModelFamilyAdapter["renderContinuation"]>[0][number];
type PromptOptions = NonNullable<Parameters<ModelFamilyAdapter["renderPrompt"]>[1]>;

/** What marks assistant turns in a family's prompt ids, found from the family's own renders. */
export interface AssistantTurnMarkers {
  /** Id runs that open an assistant turn (the generation header and what closes the message before it). */
  openers: readonly (readonly number[])[];
  /** Ids a sampled turn ends with (the family's stop ids): an assistant turn is open until one. */
  closers: ReadonlySet<number>;
}

// Two probe texts that end in different tokens: what their renders share at the end is template.
const PROBES = ["RaaS simulator probe: the text alpha", "RaaS simulator probe: 42"] as const;
const PROBE_TOOL = "raas_probe_tool";

function commonSuffix(a: readonly number[], b: readonly number[]): number[] {
  let length = 0;
  while (length < a.length && length < b.length && a[a.length - 1 - length] === b[b.length - 1 - length]) {
    length += 1;
  }
  return a.slice(a.length - length);
}

function occurrences(ids: readonly number[], run: readonly number[]): number {
  let count = 0;
  for (let i = 0; i + run.length <= ids.length; i += 1) {
    if (run.every((id, k) => ids[i + k] === id)) count += 1;
  }
  return count;
}

/**
 * The assistant-turn markers of a family, derived from what it renders rather than from its name:
 * a first prompt and the continuations after a tool result and after a user message are rendered
 * twice with different probe texts, and the ids both renders end with are an opener (Qwen3:
 * `<|im_end|>\n<|im_start|>assistant\n`; DeepSeek V3 after tool output:
 * `<｜tool▁output▁end｜><｜tool▁outputs▁end｜>`). Renders a family cannot make (Gemma 3 has no tool
 * role) are left out. Throws when no opener is found, or one occurs more than once in a first
 * prompt (turns could not be counted).
 */
export function findAssistantTurnMarkers(family: ModelFamilyAdapter): AssistantTurnMarkers {
  const encode = (text: string) => family.tokenizer.encode(text);
  const tools = [{ name: PROBE_TOOL, description: "A probe.", parameters: { type: "object" } }];
  const firstPrompt = (text: string, options: PromptOptions) =>
    encode(
      family.renderPrompt(
        [
          { role: "system", content: "RaaS simulator probe: the system prompt." },
          { role: "user", content: text },
        ],
        options,
      ),
    );
  const continuation = (message: (text: string) => ChatMessage, enableThinking: boolean) => (text: string) =>
    encode(family.renderContinuation([message(text)], { hasEndOfTurn: true, enableThinking }));
  const renders: ((text: string) => number[])[] = [];
  for (const enableThinking of [true, false]) {
    renders.push((text) => firstPrompt(text, { enableThinking }));
    renders.push((text) => firstPrompt(text, { enableThinking, tools }));
    renders.push(
      continuation((content) => ({ role: "tool", content, toolName: PROBE_TOOL }), enableThinking),
      continuation((content) => ({ role: "user", content }), enableThinking),
    );
  }
  const openers = new Map<string, number[]>();
  for (const render of renders) {
    let pair: [number[], number[]];
    try {
      pair = [render(PROBES[0]), render(PROBES[1])];
    } catch {
      continue;
    }
    const opener = commonSuffix(...pair);
    if (opener.length > 0) openers.set(opener.join(","), opener);
  }
  if (openers.size === 0) {
    throw new Error(`model family ${family.family}: no generation header found at the end of its prompts`);
  }
  const probePrompt = firstPrompt(PROBES[0], { tools });
  for (const opener of openers.values()) {
    if (occurrences(probePrompt, opener) > 1) {
      throw new Error(
        `model family ${family.family}: its generation header ${JSON.stringify(family.tokenizer.decode(opener))} ` +
          "also occurs inside a first prompt, so assistant turns cannot be counted",
      );
    }
  }
  return {
    openers: [...openers.values()].sort((a, b) => b.length - a.length),
    closers: new Set([...family.stopTokenIds, family.endOfTurnId]),
  };
}
