import { describe, expect, it } from "vitest";
import { parseHarmonyResponse } from "./harmony-tool-call.parser";

const analysis = "<|channel|>analysis<|message|>Need to use function get_weather.<|end|>";
const weatherCall =
  '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"San Francisco"}<|call|>';

describe("gpt-oss (harmony) tool-call parsing", () => {
  it("reads reasoning and a call on the commentary channel", () => {
    expect(parseHarmonyResponse(analysis + weatherCall)).toEqual({
      thinking: "Need to use function get_weather.",
      content: "",
      toolCalls: [{ name: "get_weather", arguments: { location: "San Francisco" } }],
      toolCallErrors: [],
    });
  });

  it("reads a final answer, a preamble with a call, and a recipient before the channel", () => {
    const final = parseHarmonyResponse(
      "<|channel|>analysis<|message|>Simple sum.<|end|><|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>",
    );
    expect(final).toEqual({
      thinking: "Simple sum.",
      content: "2 + 2 = 4.",
      toolCalls: [],
      toolCallErrors: [],
    });
    const preamble = parseHarmonyResponse(
      `<|channel|>commentary<|message|>Checking two things.<|end|>${weatherCall}` +
        "<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{}<|call|>",
    );
    expect(preamble).toMatchObject({
      thinking: null,
      content: "Checking two things.",
      toolCalls: [
        { name: "get_weather", arguments: { location: "San Francisco" } },
        { name: "get_time", arguments: {} },
      ],
    });
    expect(
      parseHarmonyResponse("<|channel|>analysis to=python<|message|>print(1)<|call|>").toolCalls,
    ).toEqual([{ name: "python", arguments: { code: "print(1)" } }]);
  });

  it("reports malformed calls, unknown channels and cut-off calls as typed errors", () => {
    const errors = (text: string, knownTools?: string[]) =>
      parseHarmonyResponse(text, { knownTools }).toolCallErrors.map((e) => [e.kind, e.index]);
    const callWith = (body: string) =>
      `<|channel|>commentary to=functions.f <|constrain|>json<|message|>${body}<|call|>`;
    expect(errors(callWith('{"a": '))).toEqual([["invalid-json", 1]]);
    expect(errors(callWith('"just a string"'))).toEqual([["invalid-arguments", 1]]);
    expect(errors(callWith("{}"), ["g"])).toEqual([["unknown-tool", 1]]);
    expect(errors("<|channel|>thoughts<|message|>hm<|end|>")).toEqual([["malformed-header", 1]]);
    expect(errors("<|start|>assistant<|message|>hm<|end|>")).toEqual([["malformed-header", 1]]);
    expect(errors("<|channel|>final to=functions.f<|message|>{}<|return|>")).toEqual([
      ["malformed-header", 1],
    ]);
    expect(
      errors(
        `${analysis}<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": 1}`,
      ),
    ).toEqual([["unterminated", 1]]);
    expect(errors(`${analysis}<|start|>assistant<|channel|>commentary to=functions.f <|cons`)).toEqual([
      ["unterminated", 1],
    ]);
    const message = parseHarmonyResponse(callWith("[1]")).toolCallErrors[0]?.message;
    expect(message).toMatch(/^Tool call 1: the arguments of f must be a JSON object/);
  });

  it("reads text with no harmony markers as content", () => {
    expect(parseHarmonyResponse("Just text.")).toMatchObject({
      content: "Just text.",
      toolCalls: [],
      toolCallErrors: [],
    });
  });
});
