import { describe, expect, it } from "vitest";
import { createQwen3ModelFamily } from "./qwen3-model-family";
import { loadQwen3Tokenizer, QWEN3_SPECIAL_IDS } from "./qwen3-tokenizer";

const family = createQwen3ModelFamily();
const bash = {
  name: "bash",
  description: "Run a command",
  parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};

describe("Qwen3 tokenizer", () => {
  it("maps the special tokens to the real ids", () => {
    const tokenizer = loadQwen3Tokenizer();
    const specials: [string, number][] = [
      ["<|im_start|>", QWEN3_SPECIAL_IDS.imStart],
      ["<|im_end|>", QWEN3_SPECIAL_IDS.imEnd],
      ["<|endoftext|>", QWEN3_SPECIAL_IDS.endOfText],
      ["<think>", QWEN3_SPECIAL_IDS.thinkStart],
      ["</think>", QWEN3_SPECIAL_IDS.thinkEnd],
      ["<tool_call>", QWEN3_SPECIAL_IDS.toolCallStart],
      ["</tool_call>", QWEN3_SPECIAL_IDS.toolCallEnd],
      ["<tool_response>", QWEN3_SPECIAL_IDS.toolResponseStart],
      ["</tool_response>", QWEN3_SPECIAL_IDS.toolResponseEnd],
    ];
    for (const [text, id] of specials) expect(tokenizer.encode(text)).toEqual([id]);
    expect(QWEN3_SPECIAL_IDS.imStart).toBe(151_644);
    expect(tokenizer.encode("<|im_start|>user\nhello world<|im_end|>\n")).toEqual([
      151_644, 872, 198, 14_990, 1_879, 151_645, 198,
    ]);
    expect(tokenizer.decode([151_644, 872, 198])).toBe("<|im_start|>user\n");
  });
});

describe("Qwen3 chat template", () => {
  it("renders tools into the system prompt the way Qwen3's template does", () => {
    const text = family.renderPrompt(
      [
        { role: "system", content: "You are helpful." },
        { role: "user", content: "List files" },
      ],
      { tools: [bash] },
    );
    expect(text).toBe(
      "<|im_start|>system\nYou are helpful.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
        "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
        '{"type": "function", "function": {"name": "bash", "description": "Run a command", "parameters": ' +
        '{"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}}\n</tools>\n\n' +
        "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
        '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n' +
        "<|im_start|>user\nList files<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("renders without tools, with thinking off, and groups tool responses into one user turn", () => {
    expect(family.renderPrompt([{ role: "user", content: "hi" }], { enableThinking: false })).toBe(
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",
    );
    const continuation = family.renderContinuation(
      [
        { role: "tool", content: "a.txt" },
        { role: "tool", content: "b.txt" },
      ],
      { hasEndOfTurn: true },
    );
    expect(continuation).toBe(
      "\n<|im_start|>user\n<tool_response>\na.txt\n</tool_response>\n<tool_response>\nb.txt\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
    );
    expect(family.renderContinuation([{ role: "user", content: "go on" }], { hasEndOfTurn: false })).toBe(
      "<|im_end|>\n<|im_start|>user\ngo on<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("renders assistant turns with thinking and tool calls; parsing recovers them", () => {
    const text = family.renderAssistant({
      thinking: "I should list.",
      content: "Listing.",
      toolCalls: [{ name: "bash", arguments: { command: "ls -la" } }],
    });
    expect(text).toBe(
      '<think>\nI should list.\n</think>\n\nListing.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls -la"}}\n</tool_call>',
    );
    const ids = family.tokenizer.encode(`${text}<|im_end|>`);
    expect(ids).toContain(QWEN3_SPECIAL_IDS.toolCallStart);
    expect(ids.at(-1)).toBe(QWEN3_SPECIAL_IDS.imEnd);
    const parsed = family.parseResponse(family.tokenizer.decode(ids), { knownTools: ["bash"] });
    expect(parsed).toEqual({
      thinking: "I should list.",
      content: "Listing.",
      toolCalls: [{ name: "bash", arguments: { command: "ls -la" } }],
      toolCallErrors: [],
    });
  });

  it("parses a response whose opening <think> was part of the prompt", () => {
    const parsed = family.parseResponse("plan\n</think>\n\nDone.");
    expect(parsed).toMatchObject({ thinking: "plan", content: "Done.", toolCalls: [] });
  });
});

describe("Hermes tool-call parsing", () => {
  const parse = (text: string) => family.parseResponse(text, { knownTools: ["bash", "submit"] });

  it("parses several calls, including arguments given as a JSON string", () => {
    const parsed = parse(
      '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>\n' +
        '<tool_call>{"name": "submit", "arguments": "{\\"answer\\": 4}"}</tool_call>',
    );
    expect(parsed.toolCalls).toEqual([
      { name: "bash", arguments: { command: "ls" } },
      { name: "submit", arguments: { answer: 4 } },
    ]);
    expect(parsed.toolCallErrors).toEqual([]);
  });

  it("explains invalid JSON, unknown tools, missing names, bad arguments and unclosed tags to the model", () => {
    const parsed = parse(
      '<tool_call>{"name": "bash", "arguments": {"command": "ls"</tool_call>' +
        '<tool_call>{"name": "rm", "arguments": {}}</tool_call>' +
        '<tool_call>{"arguments": {}}</tool_call>' +
        '<tool_call>{"name": "bash", "arguments": [1]}</tool_call>' +
        '<tool_call>{"name": "bash", "arguments": {"command": "pwd"}}',
    );
    expect(parsed.toolCalls).toEqual([]);
    const messages = parsed.toolCallErrors.map((error) => error.message);
    expect(messages[0]).toMatch(
      /^Tool call 1: the content is not valid JSON .*Write each call as <tool_call>/,
    );
    expect(messages[1]).toBe('Tool call 2: there is no tool named "rm". Available tools: bash, submit.');
    expect(messages[2]).toMatch(/^Tool call 3: the "name" field is missing/);
    expect(messages[3]).toMatch(/^Tool call 4: "arguments" of bash must be a JSON object/);
    expect(messages[4]).toMatch(/^Tool call 5: <tool_call> was never closed with <\/tool_call>/);
    expect(parsed.toolCallErrors[4]?.raw).toBe('{"name": "bash", "arguments": {"command": "pwd"}}');
    expect(family.formatToolCallErrors(parsed.toolCallErrors)).toMatch(
      /^Your tool call could not be executed:\n- Tool call 1: [\s\S]*\n- Tool call 2: there is no tool named "rm"/,
    );
  });

  it("reports a stray closing tag and keeps the surrounding text", () => {
    const parsed = parse('I will call it {"name": "bash"}</tool_call> now');
    expect(parsed.toolCallErrors[0]?.message).toMatch(/found <\/tool_call> without a matching <tool_call>/);
    expect(parsed.content).toBe('I will call it {"name": "bash"} now');
  });
});
