import { describe, expect, it } from "vitest";
import { createQwen3ModelFamily } from "../model/qwen3/qwen3-model-family";
import { createQwen3ChatFormat } from "./model-chat-format";

const family = createQwen3ModelFamily();
const format = createQwen3ChatFormat(family);
const tools = [{ name: "python", description: "Run Python", parameters: { type: "object" } }];

describe("createQwen3ChatFormat", () => {
  it("renders the opening prompt with tools and an open assistant turn", () => {
    const ids = format.renderInitialPrompt({ systemPrompt: "Be precise.", tools, userMessage: "1+1?" });
    const text = format.decode(ids);
    expect(text.startsWith("<|im_start|>system\nBe precise.\n\n# Tools")).toBe(true);
    expect(text).toContain('"name": "python"');
    expect(text.endsWith("<|im_start|>user\n1+1?<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
  });

  it("parses thinking, content, tool calls and malformed calls from response ids", () => {
    const ids = family.tokenizer.encode(
      '<think>\nadd\n</think>\n\nLet me compute.\n<tool_call>\n{"name": "python", "arguments": {"code": "1+1"}}\n</tool_call>\n<tool_call>\n{bad\n</tool_call><|im_end|>',
    );
    const parsed = format.parseResponse(ids);
    expect(parsed.thinking).toBe("add");
    expect(parsed.content).toBe("Let me compute.");
    expect(parsed.toolCalls).toEqual([{ name: "python", arguments: { code: "1+1" } }]);
    expect(parsed.callErrors).toHaveLength(1);
    expect(parsed.callErrors[0]?.message).toContain("not valid JSON");
  });

  it("appends tool results after the response without touching earlier ids", () => {
    const response = [...family.tokenizer.encode("ok"), family.endOfTurnId];
    const added = format.renderObservations({
      responseIds: response,
      observations: [
        { role: "tool", content: "2" },
        { role: "tool", content: "3" },
      ],
    });
    expect(format.decode(added)).toBe(
      "\n<|im_start|>user\n<tool_response>\n2\n</tool_response>\n<tool_response>\n3\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
    );
    const cut = format.renderObservations({
      responseIds: family.tokenizer.encode("partial"),
      observations: [{ role: "user", content: "go on" }],
    });
    expect(format.decode(cut).startsWith("<|im_end|>\n<|im_start|>user\ngo on<|im_end|>")).toBe(true);
  });
});
