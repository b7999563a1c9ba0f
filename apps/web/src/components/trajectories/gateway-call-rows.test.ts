import { describe, expect, it } from "vitest";
import { answerSummary, callLine, callsFacts, harnessLabel, jsonBlock } from "./gateway-call-rows";
import type { TGatewayCallItem } from "./trajectory-types";

function call(overrides: Partial<TGatewayCallItem>): TGatewayCallItem {
  return {
    id: "gwc_1",
    seq: 0,
    parentCallId: null,
    api: "chat.completions",
    userAgent: null,
    promptTokens: 1200,
    responseTokens: 34,
    cachedPromptTokens: null,
    finishReason: "tool_calls",
    backendId: "b0",
    weightVersion: null,
    latencyMs: 812.4,
    overheadMs: 1.26,
    createdAtMs: 0,
    sent: { messages: [] },
    answered: {},
    ...overrides,
  };
}

describe("gateway call rows", () => {
  it("names the harness by its recipe or its command's first words", () => {
    expect(harnessLabel({ recipe: "claude-code" })).toBe("recipe claude-code");
    expect(harnessLabel({ command: ["python3", "-c", "print(1)"] })).toBe("command python3 -c …");
    expect(harnessLabel({ command: ["agent"] })).toBe("command agent");
    expect(harnessLabel({})).toBe("—");
  });

  it("summarises an answer in its own shape: blocks, items or the chat message's parts", () => {
    const anthropic = call({
      api: "anthropic.messages",
      answered: {
        content: [
          { type: "thinking", thinking: "…" },
          { type: "tool_use", name: "Bash", input: {} },
        ],
      },
    });
    expect(answerSummary(anthropic)).toBe("thinking, tool_use Bash");
    const responses = call({
      api: "openai.responses",
      answered: { output: [{ type: "reasoning" }, { type: "function_call", name: "shell" }] },
    });
    expect(answerSummary(responses)).toBe("reasoning, function_call shell");
    const chat = call({
      answered: { reasoning_content: "x", content: "", tool_calls: [{ function: { name: "bash" } }] },
    });
    expect(answerSummary(chat)).toBe("reasoning, tool_call bash");
    expect(answerSummary(call({ answered: null }))).toBe("empty answer");
  });

  it("lists each API shape and client once, in order of first use", () => {
    const calls = [
      call({ api: "anthropic.messages", userAgent: "claude-cli/2.1.197" }),
      call({ api: "anthropic.messages", userAgent: "claude-cli/2.1.197" }),
      call({ api: "chat.completions", userAgent: null }),
    ];
    expect(callsFacts(calls)).toEqual({
      api: "Anthropic Messages, OpenAI chat completions",
      client: "claude-cli/2.1.197",
    });
    expect(callsFacts([])).toEqual({ api: "—", client: "—" });
  });

  it("puts a call's numbers in a line and cuts long JSON, counting what it left out", () => {
    expect(callLine(call({}))).toBe("1200 prompt → 34 sampled · tool_calls · 812 ms model + 1.3 ms gateway");
    expect(jsonBlock({ a: 1 })).toBe('{\n  "a": 1\n}');
    const long = jsonBlock({ text: "x".repeat(30_000) });
    expect(long.length).toBeLessThan(20_200);
    expect(long).toMatch(/… \d+ more characters/);
  });
});
