// The engine's agent loop with the real Qwen3 chat format and tokenizer against the simulator
// over HTTP (the toolbox is an in-memory fake: this test is about tokens and turns).
import { type AgentToolbox, runAgentLoop, StickyRouter, type ToolResult } from "@raas/engine";
import { createQwen3ChatFormat, RoutedInferencePool } from "@raas/inference";
import { checkTokenDrift, type TTurn } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../src/index";

const chatFormat = createQwen3ChatFormat();
const bashSpec = {
  name: "bash",
  description: "Run a shell command",
  parameters: {
    type: "object",
    properties: { command: { type: "string" } },
    required: ["command"],
    additionalProperties: false,
  },
};
const submitSpec = { name: "submit", description: "Finish", parameters: { type: "object", properties: {} } };

function fakeToolbox(): AgentToolbox & { commands: string[] } {
  const commands: string[] = [];
  return {
    commands,
    specs: [bashSpec, submitSpec],
    async call(_name, args): Promise<ToolResult> {
      commands.push(String(args.command));
      return {
        output: `out of ${String(args.command)}`,
        exitCode: 0,
        isError: false,
        truncated: false,
        timedOut: false,
        durationMs: 1,
      };
    },
  };
}

describe("runAgentLoop with Qwen3 and the simulator", () => {
  let simulator: RunningSimulator;
  let pool: RoutedInferencePool;

  beforeAll(async () => {
    simulator = await startSimulator({
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
      policy: {
        kind: "scripted",
        tasks: {
          "loop-1": {
            steps: [
              { raw: '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"\n</tool_call>' },
              { raw: '<tool_call>\n{"name": "launch_rockets", "arguments": {}}\n</tool_call>' },
              { thinking: "list files", toolCalls: [{ name: "bash", arguments: { command: "ls -la" } }] },
              { toolCalls: [{ name: "bash", arguments: { cmd: "pwd" } }] },
              { content: "Done.", toolCalls: [{ name: "submit", arguments: {} }] },
            ],
          },
          "loop-2": {
            steps: [{ toolCalls: [{ name: "bash", arguments: { command: "ls" } }] }],
            repeatLast: true,
          },
        },
      },
    });
    pool = new RoutedInferencePool({ router: new StickyRouter() });
    pool.registerBackend({
      id: "sim",
      kind: "vllm",
      baseUrl: simulator.url,
      modelName: simulator.modelName,
      weightVersion: "7",
    });
  });

  afterAll(async () => {
    await pool.close();
    await simulator.close();
  });

  it("feeds mistakes back, runs valid calls, stops on submit, and keeps ids token-in/token-out", async () => {
    const toolbox = fakeToolbox();
    const turns: TTurn[] = [];
    const result = await runAgentLoop({
      jobId: "job-loop-1",
      inference: pool,
      chatFormat,
      toolbox,
      systemPrompt: "You are a helpful agent.",
      userMessage: "Task id: loop-1\nList the files.",
      sampling: { seed: 3 },
      recorder: {
        turn: (turn) => turns.push({ ...turn, jobId: "job-loop-1", createdAtMs: 0 }),
        toolCall: () => undefined,
        sandboxEvent: () => undefined,
      },
    });
    expect(result.stopReason).toBe("submitted");
    expect(result.turns).toHaveLength(5);
    expect(toolbox.commands).toEqual(["ls -la"]);
    expect(result.events.map((e) => e.type)).toEqual([
      "malformed_tool_call",
      "unknown_tool",
      "invalid_arguments",
    ]);
    const secondPrompt = chatFormat.decode(result.turns[1]?.promptIds ?? []);
    expect(secondPrompt).toContain("<tool_response>\nTool call 1: the content is not valid JSON");
    expect(chatFormat.decode(result.turns[3]?.promptIds ?? [])).toContain(
      "<tool_response>\nout of ls -la\n</tool_response>",
    );
    expect(result.turns[2]?.thinking).toContain("list files");
    expect(checkTokenDrift(turns)).toMatchObject({ isConsistent: true, turnsChecked: 5 });
    expect(
      turns.every(
        (t) => t.backendId === "sim" && t.weightVersion === "7" && t.logprobs.length === t.responseIds.length,
      ),
    ).toBe(true);
    expect(turns.at(-1)?.cachedPromptTokens).toBeGreaterThan(0);
  });

  it("ends a trajectory that repeats one action with loop_detected", async () => {
    const result = await runAgentLoop({
      jobId: "job-loop-2",
      inference: pool,
      chatFormat,
      toolbox: fakeToolbox(),
      systemPrompt: "You are a helpful agent.",
      userMessage: "Task id: loop-2\nList the files.",
      limits: { maxRepeatedActions: 4 },
    });
    expect(result).toMatchObject({ stopReason: "loop_detected", toolCallCount: 3 });
    expect(result.turns).toHaveLength(4);
  });

  it("stops when the context would not leave room for a response", async () => {
    const result = await runAgentLoop({
      jobId: "job-loop-3",
      inference: pool,
      chatFormat,
      toolbox: fakeToolbox(),
      systemPrompt: "You are a helpful agent.",
      userMessage: "Task id: loop-2\nList the files.",
      limits: { maxContextTokens: 700, maxTokensPerTurn: 200, minResponseTokens: 150, maxRepeatedActions: 0 },
    });
    expect(result.stopReason).toBe("context_exhausted");
    const last = result.turns.at(-1);
    expect((last?.promptIds.length ?? 0) + (last?.responseIds.length ?? 0)).toBeLessThanOrEqual(700);
  });
});
