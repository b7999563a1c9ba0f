import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatTemplateError, compileChatTemplate, loadChatTemplate } from "./jinja-chat-template";

const user = [{ role: "user", content: "hi" }];

describe("compileChatTemplate", () => {
  it("passes bos/eos tokens from the config (AddedToken objects too), tools and template options", () => {
    const template = compileChatTemplate(
      {
        chat_template:
          "{{ bos_token }}{% for m in messages %}{{ m.role }}:{{ m.content }}{% endfor %}" +
          "{% if tools %}[{{ tools[0].function.name }}]{% endif %}" +
          "{% if add_generation_prompt %}>{% endif %}{% if enable_thinking is false %}!{% endif %}{{ eos_token }}",
        bos_token: { content: "<s>" },
        eos_token: "</s>",
      },
      "tiny",
    );
    expect(template.render({ messages: user })).toBe("<s>user:hi></s>");
    expect(
      template.render({
        messages: user,
        tools: [{ type: "function", function: { name: "f" } }],
        addGenerationPrompt: false,
        templateOptions: { enable_thinking: false },
      }),
    ).toBe("<s>user:hi[f]!</s>");
  });

  it("picks the tool_use template of named templates when tools are given", () => {
    const template = compileChatTemplate(
      {
        chat_template: [
          { name: "default", template: "plain" },
          { name: "tool_use", template: "with tools" },
        ],
      },
      "named",
    );
    expect(template.render({ messages: user })).toBe("plain");
    expect(template.render({ messages: user, tools: [{ type: "function", function: { name: "f" } }] })).toBe(
      "with tools",
    );
  });

  it("turns raise_exception, parse failures and a missing template into errors naming the model", () => {
    const raising = compileChatTemplate(
      { chat_template: "{{ raise_exception('no system role') }}" },
      "strict-model",
    );
    expect(() => raising.render({ messages: user })).toThrow(ChatTemplateError);
    expect(() => raising.render({ messages: user })).toThrow(
      /strict-model failed to render: .*no system role/,
    );
    expect(() => compileChatTemplate({ chat_template: "{% if %}" }, "broken")).toThrow(
      /chat template of broken does not parse/,
    );
    expect(() => compileChatTemplate({}, "bare")).toThrow(/bare has no usable chat_template/);
  });
});

describe("loadChatTemplate", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "raas-chat-template-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("reads tokenizer_config.json from a tokenizer directory", async () => {
    await writeFile(
      join(directory, "tokenizer_config.json"),
      JSON.stringify({ chat_template: "{{ messages[0].content }}" }),
    );
    const template = await loadChatTemplate(directory, "dir-model");
    expect(template.render({ messages: user })).toBe("hi");
  });

  it("takes chat_template.jinja beside the config, as newer directories keep it", async () => {
    const newer = await mkdtemp(join(directory, "newer-"));
    await writeFile(join(newer, "tokenizer_config.json"), JSON.stringify({ eos_token: "</s>" }));
    await expect(loadChatTemplate(newer, "newer-model")).rejects.toThrow(
      /newer-model has no usable chat_template/,
    );
    await writeFile(join(newer, "chat_template.jinja"), "{{ messages[0].content }}{{ eos_token }}");
    expect((await loadChatTemplate(newer, "newer-model")).render({ messages: user })).toBe("hi</s>");
  });

  it("names the directory when the config is missing or not JSON", async () => {
    await expect(loadChatTemplate(join(directory, "absent"))).rejects.toThrow(
      /No tokenizer_config.json in .*absent/,
    );
    const broken = await mkdtemp(join(directory, "broken-"));
    await writeFile(join(broken, "tokenizer_config.json"), "{not json");
    await expect(loadChatTemplate(broken)).rejects.toThrow(/is not a valid tokenizer config/);
  });
});
