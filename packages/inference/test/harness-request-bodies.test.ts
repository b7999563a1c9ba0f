// Request bodies as real agent CLIs sent them to the gateway (captured from Claude Code 2.1.197 and
// Codex 0.171.0 running a SWE fixture job; trimmed for size only), mapped onto chat requests and
// rendered into prompts call after call as the gateway does: which calls continue the previous
// answer token-in/token-out, and where a CLI changed the answer it sends back.
import { readFileSync } from "node:fs";
import {
  type TAnthropicMessage,
  type TChatCompletionRequest,
  type TOpenAiAssistantMessage,
  type TResponsesResponse,
  ZAnthropicMessagesRequest,
  ZResponsesRequest,
} from "@raas/shared";
import { describe, expect, it } from "vitest";
import { toChatRequestFromAnthropic } from "../src/gateway/anthropic-request";
import { buildGatewayPrompt, type GatewayPrompt, type SessionCall } from "../src/gateway/gateway-prompt";
import { toOpenAiAnswer } from "../src/gateway/openai-answer";
import { messageKey, toToolSpecs } from "../src/gateway/openai-messages";
import { toChatRequestFromResponses } from "../src/gateway/responses-request";
import { createQwen3ModelFamily } from "../src/model/qwen3/qwen3-model-family";

interface CapturedCall<TAnswer> {
  request: unknown;
  answer: TAnswer;
  sampledIds: number[];
}

const captured = <TAnswer>(name: string): CapturedCall<TAnswer>[] =>
  JSON.parse(readFileSync(new URL(`fixtures/${name}`, import.meta.url), "utf8")).calls;

const claudeCode = captured<TAnthropicMessage>("claude-code-2.1.197-messages.json");
const codex = captured<TResponsesResponse>("codex-0.171.0-responses.json");
const family = createQwen3ModelFamily();

/**
 * Renders each call's prompt from the calls before it, as the gateway does; each answer is the
 * sampled ids parsed, with the tool-call ids the gateway gave them (`toolCallIds`).
 */
function replay(
  chats: readonly TChatCompletionRequest[],
  sampled: readonly number[][],
  toolCallIds: readonly string[][],
): { prompts: GatewayPrompt[]; history: SessionCall[]; answers: TOpenAiAssistantMessage[] } {
  const history: SessionCall[] = [];
  const prompts: GatewayPrompt[] = [];
  const answers: TOpenAiAssistantMessage[] = [];
  chats.forEach((chat, i) => {
    const tools = toToolSpecs(chat.tools);
    const enableThinking = chat.chat_template_kwargs?.enable_thinking ?? true;
    const prompt = buildGatewayPrompt({ family, messages: chat.messages, tools, enableThinking, history });
    const responseIds = sampled[i] as number[];
    const { message } = toOpenAiAnswer(family, responseIds, {
      finishReason: "stop",
      parseToolCalls: true,
      knownTools: tools.map((tool) => tool.name),
    });
    const ids = toolCallIds[i] as string[];
    const answer: TOpenAiAssistantMessage = {
      ...message,
      ...(message.tool_calls && {
        tool_calls: message.tool_calls.map((call, k) => ({ ...call, id: ids[k] as string })),
      }),
    };
    prompts.push(prompt);
    answers.push(answer);
    history.push({
      id: `c${i}`,
      messageKeys: prompt.messageKeys,
      answerKey: messageKey(answer, chat.messages.length),
      toolCallIds: ids,
      toolsKey: prompt.toolsKey,
      enableThinking,
      promptIds: prompt.promptIds,
      responseIds,
    });
  });
  return { prompts, history, answers };
}

function continues(prompt: GatewayPrompt, parent: SessionCall): boolean {
  const stream = [...parent.promptIds, ...parent.responseIds];
  return prompt.isContinuation && stream.every((id, at) => prompt.promptIds[at] === id);
}

describe("Claude Code's Messages requests", () => {
  const requests = claudeCode.map((call) => ZAnthropicMessagesRequest.parse(call.request));
  const chats = requests.map((request) => toChatRequestFromAnthropic(request));
  const toolUses = claudeCode.map((call) =>
    call.answer.content.flatMap((block) => (block.type === "tool_use" ? [block] : [])),
  );

  it("map onto chat messages: system blocks, reminder and task as one user turn, system turns in place", () => {
    const [first] = requests;
    expect(first?.stream).toBe(true);
    expect(first?.thinking).toEqual({ type: "adaptive" });
    const system = first?.system;
    const userBlocks = first?.messages[0]?.content;
    if (!Array.isArray(system) || !Array.isArray(userBlocks)) throw new Error("the fixture's shape changed");
    expect(chats[0]?.messages.map((message) => message.role)).toEqual(["system", "user", "system"]);
    expect(chats[0]?.messages[0]?.content).toBe(system.map((block) => block.text).join(""));
    // The reminder block ends in "\n\n": the blocks are one text, joined as written.
    const texts = userBlocks.map((block) => (block.type === "text" ? block.text : ""));
    expect(texts[0]).toMatch(/<\/system-reminder>\n\n$/);
    expect(chats[0]?.messages[1]?.content).toBe(texts.join(""));
    expect(chats[0]?.tools?.map((tool) => tool.function.name)).toEqual(["Bash", "Read", "Write"]);
    expect(chats[3]?.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "system",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "tool",
    ]);
    expect(chats[3]?.messages[4]).toEqual({
      role: "tool",
      tool_call_id: toolUses[0]?.[0]?.id,
      content: "README.md\nnumerals\ntests",
    });
  });

  it("send thinking blocks back dropped and Bash commands without their leading `cd <cwd> && `", () => {
    // What the gateway answered (thinking, then the tool call) against what came back next call.
    expect(claudeCode[0]?.answer.content.map((block) => block.type)).toEqual(["thinking", "tool_use"]);
    const echoed = requests[1]?.messages[2]?.content;
    expect(echoed).toEqual([
      {
        type: "tool_use",
        id: toolUses[0]?.[0]?.id,
        name: "Bash",
        input: { command: "git status --short && ls" },
      },
    ]);
    expect(toolUses[0]?.[0]?.input).toEqual({
      command: "cd /workspace/numerals && git status --short && ls",
    });
    // The Write call comes back without its thinking block but otherwise as it was answered.
    expect(claudeCode[1]?.answer.content.map((block) => block.type)).toEqual(["thinking", "tool_use"]);
    expect(requests[2]?.messages[4]?.content).toEqual(toolUses[1]);
    expect(toolUses[2]?.[0]?.input).toEqual({
      command: "cd /workspace/numerals && git apply .raas-fix.patch && rm .raas-fix.patch && git diff --stat",
    });
    expect(requests[3]?.messages[6]?.content).toEqual([
      {
        ...toolUses[2]?.[0],
        input: { command: "git apply .raas-fix.patch && rm .raas-fix.patch && git diff --stat" },
      },
    ]);
  });

  it("continue an answer sent back as sampled (thinking dropped or not), and only such answers", () => {
    const sampled = claudeCode.map((call) => call.sampledIds);
    const ids = toolUses.map((uses) => uses.map((use) => use.id));
    const { prompts, history, answers } = replay(chats, sampled, ids);
    // The sampled ids parse into what the gateway answered.
    expect(answers[1]?.tool_calls?.[0]?.function).toEqual({
      name: "Write",
      arguments: JSON.stringify(toolUses[1]?.[0]?.input),
    });
    // Call 1: the Bash command came back edited, so the prompt is rendered afresh (a split chain).
    expect(prompts[1]).toMatchObject({ isContinuation: false, parentCallId: "c0" });
    // Call 2: the Write call came back as it was answered (its thinking dropped): sampled ids kept.
    expect(continues(prompts[2] as GatewayPrompt, history[1] as SessionCall)).toBe(true);
    // Call 3: the second Bash command came back edited; the prompt continues call 1 instead.
    expect(prompts[3]?.parentCallId).toBe("c1");
    expect(continues(prompts[3] as GatewayPrompt, history[1] as SessionCall)).toBe(true);
  });
});

describe("Codex's Responses requests", () => {
  const requests = codex.map((call) => ZResponsesRequest.parse(call.request));
  const chats = requests.map((request) => toChatRequestFromResponses(request, null));

  it("map onto chat messages: developer items in place, reasoning and function_call as one answer", () => {
    // Codex 0.171 sends its instructions as a developer item, not as `instructions`.
    expect(requests[0]).toMatchObject({ stream: true, store: false });
    expect(requests[0]?.instructions).toBeUndefined();
    expect(chats[0]?.messages.map((message) => message.role)).toEqual([
      "developer",
      "developer",
      "user",
      "user",
    ]);
    // web_search runs at the provider: only the function tools are offered to the model.
    expect(chats[0]?.tools?.map((tool) => tool.function.name)).toEqual(["exec_command", "write_stdin"]);
    const answered = codex[0]?.answer.output.find((item) => item.type === "function_call");
    expect(chats[1]?.messages.slice(4)).toEqual([
      {
        role: "assistant",
        content: null,
        reasoning_content: "Let me look at the repository first.",
        tool_calls: [
          {
            id: answered?.type === "function_call" ? answered.call_id : "",
            type: "function",
            function: {
              name: "exec_command",
              arguments: answered?.type === "function_call" && answered.arguments,
            },
          },
        ],
      },
      {
        role: "tool",
        tool_call_id: answered?.type === "function_call" ? answered.call_id : "",
        content: expect.stringContaining("Process exited with code 0"),
      },
    ]);
  });

  it("send every answer back as sampled: each call continues the one before", () => {
    const sampled = codex.map((call) => call.sampledIds);
    const ids = codex.map((call) =>
      call.answer.output.flatMap((item) => (item.type === "function_call" ? [item.call_id] : [])),
    );
    const { prompts, history } = replay(chats, sampled, ids);
    for (const i of [1, 2, 3]) {
      expect(prompts[i]?.parentCallId).toBe(`c${i - 1}`);
      expect(continues(prompts[i] as GatewayPrompt, history[i - 1] as SessionCall)).toBe(true);
    }
  });
});
