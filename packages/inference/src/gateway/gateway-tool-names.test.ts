import type { TOpenAiMessage } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { createGptOssModelFamily } from "../model/harmony/gpt-oss-model-family";
import { buildGatewayPrompt } from "./gateway-prompt";
import { toChatMessage, toolNamesOfCalls } from "./openai-messages";

const history: TOpenAiMessage[] = [
  { role: "user", content: "List files, then the weather." },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_a", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
      { id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
    ],
  },
  { role: "tool", tool_call_id: "call_b", content: "sunny" },
  { role: "tool", tool_call_id: "call_a", content: "a.txt" },
  { role: "tool", tool_call_id: "call_unknown", content: "?" },
];

describe("tool results through the gateway carry the name of the call they answer", () => {
  it("looks the name up by tool_call_id, in any order; an unknown id gives no name", () => {
    const names = toolNamesOfCalls(history);
    expect(history.slice(2).map((message, i) => toChatMessage(message, i + 2, names))).toEqual([
      { role: "tool", content: "sunny", toolName: "get_weather" },
      { role: "tool", content: "a.txt", toolName: "bash" },
      { role: "tool", content: "?" },
    ]);
  });

  it("harmony (gpt-oss) addresses each result from functions.<name>", () => {
    const family = createGptOssModelFamily();
    const prompt = buildGatewayPrompt({
      family,
      messages: history,
      tools: [],
      enableThinking: true,
      history: [],
    });
    const text = family.tokenizer.decode(prompt.promptIds);
    expect(text).toContain(
      "<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>sunny",
    );
    expect(text).toContain("<|start|>functions.bash to=assistant<|channel|>commentary<|message|>a.txt");
  });
});
