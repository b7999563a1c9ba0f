import { describe, expect, it } from "vitest";
import { detectReasoningFormat, detectToolCallFormat } from "./probe-markers";

const call = '{"name": "probe_lookup_weather", "arguments": {"city": "Probeville"}}';

describe("detectToolCallFormat", () => {
  it("recognises each known format by its markers", () => {
    expect(detectToolCallFormat(`<|im_start|>assistant\n<tool_call>\n${call}\n</tool_call><|im_end|>`)).toBe(
      "hermes-json",
    );
    expect(
      detectToolCallFormat(
        '<|start_header_id|>assistant<|end_header_id|>\n\n{"name": "probe_lookup_weather", "parameters": {"city": "Probeville"}}<|eom_id|>',
      ),
    ).toBe("llama3-json");
    expect(
      detectToolCallFormat(
        '<|python_tag|>{"name": "probe_lookup_weather", "parameters": {"city": "Probeville"}}',
      ),
    ).toBe("llama3-json");
    expect(
      detectToolCallFormat(
        '<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>probe_lookup_weather\n```json\n{"city": "Probeville"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      ),
    ).toBe("deepseek-v3");
    expect(
      detectToolCallFormat(
        '<|start|>assistant<|channel|>commentary to=functions.probe_lookup_weather <|constrain|>json<|message|>{"city":"Probeville"}<|call|>',
      ),
    ).toBe("harmony");
  });

  it("accepts arguments given as a JSON string inside the call", () => {
    const stringArguments = JSON.stringify({
      name: "probe_lookup_weather",
      arguments: JSON.stringify({ city: "Probeville" }),
    });
    expect(detectToolCallFormat(`<tool_call>${stringArguments}</tool_call>`)).toBe("hermes-json");
  });

  it("recognises nothing when the name, the arguments or the markers are not the probe's", () => {
    expect(detectToolCallFormat(call.replace("probe_lookup_weather", "other"))).toBeUndefined();
    expect(
      detectToolCallFormat(`<tool_call>${call.replace("Probeville", "Elsewhere")}</tool_call>`),
    ).toBeUndefined();
    // A plain JSON call with "arguments" (not Llama's "parameters") and no markers is no known format.
    expect(detectToolCallFormat(`assistant: ${call}`)).toBeUndefined();
    expect(detectToolCallFormat("[TOOL_CALLS] probe_lookup_weather Probeville")).toBeUndefined();
    // A tool's schema names "parameters" but holds no call arguments.
    expect(
      detectToolCallFormat(
        '{"name": "probe_lookup_weather", "parameters": {"type": "object", "properties": {"city": {}}}}',
      ),
    ).toBeUndefined();
    expect(detectToolCallFormat("<tool_call>{not json</tool_call>")).toBeUndefined();
  });
});

describe("detectReasoningFormat", () => {
  it("recognises <think> tags and the harmony analysis channel around the reasoning", () => {
    expect(detectReasoningFormat("<think>\nwhy\n</think>\n\nanswer", "why")).toBe("think-tags");
    expect(detectReasoningFormat("<|channel|>analysis<|message|>why<|end|>", "why")).toBe("harmony-analysis");
  });

  it("recognises nothing for bare, unclosed or absent reasoning", () => {
    expect(detectReasoningFormat("why answer", "why")).toBeUndefined();
    expect(detectReasoningFormat("<think></think> why", "why")).toBeUndefined();
    expect(detectReasoningFormat("<think> why", "why")).toBeUndefined();
    expect(detectReasoningFormat("<think></think>", "why")).toBeUndefined();
  });
});
