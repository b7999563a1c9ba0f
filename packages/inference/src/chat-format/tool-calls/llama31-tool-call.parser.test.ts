import { describe, expect, it } from "vitest";
import { parseLlama31Response } from "./llama31-tool-call.parser";

describe("Llama 3.1 tool-call parsing (Meta's prompt-format shapes)", () => {
  it("reads a JSON call as the whole message, with or without <|python_tag|>", () => {
    const json =
      '{"name": "get_current_conditions", "parameters": {"location": "San Francisco, CA", "unit": "Fahrenheit"}}';
    for (const text of [`${json}<|eot_id|>`, `<|python_tag|>${json}<|eom_id|>`]) {
      expect(parseLlama31Response(text)).toEqual({
        thinking: null,
        content: "",
        toolCalls: [
          {
            name: "get_current_conditions",
            arguments: { location: "San Francisco, CA", unit: "Fahrenheit" },
          },
        ],
        toolCallErrors: [],
      });
    }
  });

  it("reads built-in calls and code for the code interpreter after <|python_tag|>", () => {
    expect(
      parseLlama31Response(
        '<|python_tag|>brave_search.call(query="current weather in Menlo Park, California")<|eom_id|>',
      ).toolCalls,
    ).toEqual([{ name: "brave_search", arguments: { query: "current weather in Menlo Park, California" } }]);
    expect(
      parseLlama31Response(
        "<|python_tag|>wolfram_alpha.call(query='solve x^3 - 4x^2 + 6x - 24 = 0', n=2, exact=True)<|eom_id|>",
      ).toolCalls,
    ).toEqual([
      { name: "wolfram_alpha", arguments: { query: "solve x^3 - 4x^2 + 6x - 24 = 0", n: 2, exact: true } },
    ]);
    const code = "import math\nprint(math.sqrt(2))";
    expect(parseLlama31Response(`<|python_tag|>${code}<|eom_id|>`).toolCalls).toEqual([
      { name: "code_interpreter", arguments: { code } },
    ]);
  });

  it("reads several calls, content before a call, and custom <function=…> calls", () => {
    const several = parseLlama31Response(
      '<|python_tag|>{"name": "a", "parameters": {"x": "1;2"}}; {"name": "b", "parameters": {}}<|eom_id|>',
    );
    expect(several.toolCalls).toEqual([
      { name: "a", arguments: { x: "1;2" } },
      { name: "b", arguments: {} },
    ]);
    const mixed = parseLlama31Response(
      'Let me search.<|python_tag|>brave_search.call(query="llama")<|eom_id|>',
    );
    expect(mixed).toMatchObject({ content: "Let me search.", toolCalls: [{ name: "brave_search" }] });
    const custom = parseLlama31Response(
      'Trending: <function=spotify_trending_songs>{"n": "5"}</function><function=get_time>{}</function><|eom_id|>',
    );
    expect(custom).toMatchObject({
      content: "Trending:",
      toolCalls: [
        { name: "spotify_trending_songs", arguments: { n: "5" } },
        { name: "get_time", arguments: {} },
      ],
      toolCallErrors: [],
    });
  });

  it("keeps a plain answer as content", () => {
    expect(parseLlama31Response("The answer is 4.<|eot_id|>")).toEqual({
      thinking: null,
      content: "The answer is 4.",
      toolCalls: [],
      toolCallErrors: [],
    });
  });

  it("reports malformed calls as typed errors in the Hermes parser's message shape", () => {
    const errors = (text: string, knownTools?: string[]) =>
      parseLlama31Response(text, { knownTools }).toolCallErrors.map((e) => [e.kind, e.index, e.message]);
    expect(errors('{"name": "get_weather", "parameters": {"city": "Par')).toEqual([
      ["invalid-json", 1, expect.stringMatching(/^Tool call 1: the call is not valid JSON/)],
    ]);
    expect(errors('{"name": "get_weather", "parameters": [1]}<|eot_id|>')[0]?.[0]).toBe("invalid-arguments");
    expect(errors('<|python_tag|>{"parameters": {}}<|eom_id|>')[0]?.[0]).toBe("missing-name");
    expect(errors('<|python_tag|>[{"name": "a"}]<|eom_id|>')[0]?.[0]).toBe("not-an-object");
    expect(errors('<|python_tag|>{"name": "rm", "parameters": {}}<|eom_id|>', ["ls"])[0]?.[2]).toBe(
      'Tool call 1: there is no tool named "rm". Available tools: ls.',
    );
    expect(errors('<|python_tag|>brave_search.call(query="unclosed)<|eom_id|>')[0]?.[0]).toBe(
      "invalid-builtin-call",
    );
    expect(errors("<|python_tag|>brave_search.call(query=os.getcwd())<|eom_id|>")[0]?.[0]).toBe(
      "invalid-builtin-call",
    );
    expect(errors("<|python_tag|>import math\nprint(math.")[0]?.[0]).toBe("unterminated");
    expect(errors('<function=f>{"a": 1}')[0]?.[0]).toBe("unterminated");
    expect(errors("<function=f>{a}</function>")[0]?.[0]).toBe("invalid-json");
  });
});
