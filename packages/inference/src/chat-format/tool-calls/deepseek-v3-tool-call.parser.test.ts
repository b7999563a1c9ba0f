import { describe, expect, it } from "vitest";
import { parseDeepSeekV3Response } from "./deepseek-v3-tool-call.parser";

const call = (name: string, json: string) =>
  `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${json}\n\`\`\`<｜tool▁call▁end｜>`;
const calls = (...parts: string[]) =>
  `<｜tool▁calls▁begin｜>${parts.join("\n")}<｜tool▁calls▁end｜><｜end▁of▁sentence｜>`;

describe("DeepSeek V3 tool-call parsing (its chat template's shape)", () => {
  it("reads one call and several calls", () => {
    expect(parseDeepSeekV3Response(calls(call("get_weather", '{"location": "Hangzhou"}')))).toEqual({
      thinking: null,
      content: "",
      toolCalls: [{ name: "get_weather", arguments: { location: "Hangzhou" } }],
      toolCallErrors: [],
    });
    const several = parseDeepSeekV3Response(calls(call("a", '{"x": 1}'), call("b", "{}")));
    expect(several.toolCalls).toEqual([
      { name: "a", arguments: { x: 1 } },
      { name: "b", arguments: {} },
    ]);
  });

  it("keeps content before the calls and plain answers", () => {
    const mixed = parseDeepSeekV3Response(
      `Checking the weather.\n${calls(call("get_weather", '{"location": "Paris"}'))}`,
    );
    expect(mixed).toMatchObject({ content: "Checking the weather.", toolCalls: [{ name: "get_weather" }] });
    expect(parseDeepSeekV3Response("Four.<｜end▁of▁sentence｜>")).toEqual({
      thinking: null,
      content: "Four.",
      toolCalls: [],
      toolCallErrors: [],
    });
  });

  it("reports malformed calls as typed errors", () => {
    const kinds = (text: string, knownTools?: string[]) =>
      parseDeepSeekV3Response(text, { knownTools }).toolCallErrors.map((e) => e.kind);
    expect(kinds(calls(call("a", '{"x": ')))).toEqual(["invalid-json"]);
    expect(kinds(calls(call("a", "[1, 2]")))).toEqual(["invalid-arguments"]);
    expect(kinds(calls(call("", "{}")))).toEqual(["missing-name"]);
    expect(kinds(calls(call("rm", "{}")), ["ls"])).toEqual(["unknown-tool"]);
    expect(kinds(calls("<｜tool▁call▁begin｜>a\n```json\n{}\n```<｜tool▁call▁end｜>"))).toEqual([
      "malformed-header",
    ]);
    expect(kinds(calls("<｜tool▁call▁begin｜>python<｜tool▁sep｜>a\n{}<｜tool▁call▁end｜>"))).toEqual([
      "malformed-header",
    ]);
    // Cut at max length in the middle of the second call.
    const cut = `<｜tool▁calls▁begin｜>${call("a", "{}")}\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>b\n\`\`\`json\n{"q"`;
    const parsed = parseDeepSeekV3Response(cut);
    expect(parsed.toolCalls).toEqual([{ name: "a", arguments: {} }]);
    expect(parsed.toolCallErrors.map((e) => [e.kind, e.index])).toEqual([["unterminated", 2]]);
    expect(parsed.toolCallErrors[0]?.message).toMatch(/^Tool call 2: .*was never closed/);
    expect(kinds("text <｜tool▁sep｜> more")).toEqual(["stray-marker"]);
  });
});
