import type { TToolCall, TTurn } from "@raas/shared";
import { blamePolicy, failureOf, sandboxFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import type { ChatFormat, ParsedChatResponse } from "../ports/chat-format.port";
import type { GenerateRequest, GenerateResult, InferencePool } from "../ports/inference-pool.port";
import type { ToolResult } from "../ports/sandbox-runtime.port";
import type { TrajectoryRecorder } from "../ports/task-handler.port";
import { runAgentLoop } from "./agent-loop";
import type { AgentToolbox, RunAgentLoopOptions } from "./agent-loop.types";

// A fake chat format: one id per character; a response is the JSON of its parsed form.
const encode = (text: string) => [...text].map((c) => c.charCodeAt(0));
const decode = (ids: readonly number[]) => String.fromCharCode(...ids);
const fakeFormat: ChatFormat = {
  family: "fake",
  stopTokenIds: [0],
  renderInitialPrompt: (input) =>
    encode(`S:${input.systemPrompt}|T:${input.tools.map((t) => t.name).join(",")}|U:${input.userMessage}|A:`),
  parseResponse: (ids) => JSON.parse(decode(ids)) as ParsedChatResponse,
  renderObservations: ({ observations }) => encode(`|O:${JSON.stringify(observations)}|A:`),
  decode,
};

type Step = Partial<ParsedChatResponse> & {
  finishReason?: string;
  fail?: Error;
  cachedPromptTokens?: number | null;
};

function fakeInference(steps: Step[]): InferencePool & { requests: GenerateRequest[] } {
  const requests: GenerateRequest[] = [];
  return {
    requests,
    releaseJob: () => undefined,
    async generate(request): Promise<GenerateResult> {
      requests.push({ ...request, promptIds: [...request.promptIds] });
      const step = steps[Math.min(requests.length - 1, steps.length - 1)] as Step;
      if (step.fail) throw step.fail;
      const parsed: ParsedChatResponse = {
        thinking: step.thinking ?? null,
        content: step.content ?? "",
        toolCalls: step.toolCalls ?? [],
        callErrors: step.callErrors ?? [],
      };
      const responseIds = encode(JSON.stringify(parsed));
      return {
        responseIds,
        logprobs: responseIds.map(() => -0.5),
        finishReason: step.finishReason ?? "stop",
        backendId: "fake-0",
        weightVersion: "v1",
        cachedPromptTokens: step.cachedPromptTokens === undefined ? 3 : step.cachedPromptTokens,
        latencyMs: 1,
      };
    },
  };
}

const ok = (output: string, exitCode = 0): ToolResult => ({
  output,
  exitCode,
  isError: exitCode !== 0,
  truncated: false,
  timedOut: false,
  durationMs: 2,
});

function fakeToolbox(run?: (name: string, args: Record<string, unknown>) => Promise<ToolResult>) {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const toolbox: AgentToolbox = {
    specs: [
      {
        name: "bash",
        description: "shell",
        parameters: {
          type: "object",
          properties: { command: { type: "string" } },
          required: ["command"],
          additionalProperties: false,
        },
      },
      { name: "submit", description: "done", parameters: { type: "object", properties: {} } },
    ],
    async call(name, args) {
      calls.push({ name, args });
      return run ? run(name, args) : ok(`ran ${String(args.command)}`);
    },
  };
  return { toolbox, calls };
}

function recorder() {
  const turns: Omit<TTurn, "jobId" | "createdAtMs">[] = [];
  const toolCalls: Omit<TToolCall, "jobId" | "createdAtMs">[] = [];
  const record: TrajectoryRecorder = {
    turn: (t) => turns.push(t),
    toolCall: (c) => toolCalls.push(c),
    sandboxEvent: () => undefined,
  };
  return { record, turns, toolCalls };
}

function options(
  steps: Step[],
  extra: Partial<RunAgentLoopOptions> = {},
): RunAgentLoopOptions & { inference: ReturnType<typeof fakeInference> } {
  return {
    jobId: "job-1",
    inference: fakeInference(steps),
    chatFormat: fakeFormat,
    toolbox: fakeToolbox().toolbox,
    systemPrompt: "sys",
    userMessage: "solve",
    ...extra,
  } as RunAgentLoopOptions & { inference: ReturnType<typeof fakeInference> };
}

const bash = (command: string) => ({ name: "bash", arguments: { command } });

describe("runAgentLoop", () => {
  it("runs tools, appends observations as tokens and stops on submit", async () => {
    const { toolbox, calls } = fakeToolbox();
    const rec = recorder();
    const opts = options(
      [
        { thinking: "look", toolCalls: [bash("ls")] },
        { toolCalls: [bash("cat a"), { name: "submit", arguments: { answer: "42" } }] },
      ],
      { toolbox, recorder: rec.record, sampling: { temperature: 0.7, seed: 5 } },
    );
    const result = await runAgentLoop(opts);
    expect(result.stopReason).toBe("submitted");
    expect(result.submission).toEqual({ name: "submit", arguments: { answer: "42" } });
    expect(calls.map((c) => c.args.command)).toEqual(["ls", "cat a"]);
    expect(result.toolCallCount).toBe(2);

    const [first, second] = opts.inference.requests;
    const turn1 = result.turns[0];
    expect(turn1 && second && first).toBeTruthy();
    const appended = second?.promptIds.slice(
      (first?.promptIds.length ?? 0) + (turn1?.responseIds.length ?? 0),
    );
    expect(second?.promptIds.slice(0, first?.promptIds.length)).toEqual(first?.promptIds);
    expect(decode(appended ?? [])).toBe(
      `|O:${JSON.stringify([{ role: "tool", content: "ran ls", toolName: "bash" }])}|A:`,
    );
    expect(first?.sampling).toMatchObject({ temperature: 0.7, seed: 5, maxTokens: 4_096, stopTokenIds: [0] });

    expect(rec.turns.map((t) => t.index)).toEqual([0, 1]);
    expect(rec.turns[0]).toMatchObject({ backendId: "fake-0", weightVersion: "v1", cachedPromptTokens: 3 });
    expect(rec.turns[0]?.logprobs).toHaveLength(rec.turns[0]?.responseIds.length ?? -1);
    expect(rec.toolCalls).toEqual([
      expect.objectContaining({ turnIndex: 0, index: 0, name: "bash", output: "ran ls", exitCode: 0 }),
      expect.objectContaining({ turnIndex: 1, index: 0, name: "bash", output: "ran cat a" }),
    ]);
  });

  it("records on every turn the sampling parameters the backend was sent", async () => {
    const rec = recorder();
    const opts = options([{ toolCalls: [bash("ls")] }, { content: "done" }], {
      recorder: rec.record,
      sampling: { temperature: 0.6, topP: 0.95, topK: 20, seed: 11 },
      limits: { maxTokensPerTurn: 512 },
    });
    const result = await runAgentLoop(opts);
    const used = { temperature: 0.6, topP: 0.95, topK: 20, seed: 11, maxTokens: 512 };
    expect(opts.inference.requests.map((request) => request.sampling)).toEqual([
      { ...used, stopTokenIds: [0] },
      { ...used, stopTokenIds: [0] },
    ]);
    expect(rec.turns.map((turn) => turn.sampling)).toEqual([used, used]);
    expect(result.turns.map((turn) => turn.sampling)).toEqual([used, used]);

    // Unset settings are recorded as the backend is sent them: temperature 1, top-p 1, top-k -1 (no cut).
    const plain = recorder();
    await runAgentLoop(options([{ content: "done" }], { recorder: plain.record }));
    expect(plain.turns[0]?.sampling).toEqual({
      temperature: 1,
      topP: 1,
      topK: -1,
      seed: null,
      maxTokens: 4_096,
    });
  });

  it("records an unknown cached-token count as null, not as 0", async () => {
    const rec = recorder();
    const opts = options([{ toolCalls: [bash("ls")], cachedPromptTokens: null }, { content: "done" }], {
      recorder: rec.record,
    });
    const result = await runAgentLoop(opts);
    expect(rec.turns.map((t) => t.cachedPromptTokens)).toEqual([null, 3]);
    expect(result.turns.map((t) => t.cachedPromptTokens)).toEqual([null, 3]);
  });

  it("feeds malformed calls, unknown tools and bad arguments back as error observations", async () => {
    const rec = recorder();
    const { toolbox, calls } = fakeToolbox();
    const opts = options(
      [
        {
          callErrors: [{ raw: "{oops", message: "Tool call 1: not valid JSON" }],
          toolCalls: [
            { name: "rm_rf", arguments: {} },
            { name: "bash", arguments: { cmd: "ls" } },
          ],
        },
        { content: "The answer is 4." },
      ],
      { toolbox, recorder: rec.record },
    );
    const result = await runAgentLoop(opts);
    expect(result.stopReason).toBe("final_answer");
    expect(result.finalContent).toBe("The answer is 4.");
    expect(calls).toHaveLength(0);
    expect(result.events.map((e) => e.type)).toEqual([
      "malformed_tool_call",
      "unknown_tool",
      "invalid_arguments",
    ]);
    const observations = decode(opts.inference.requests[1]?.promptIds ?? []);
    expect(observations).toContain("not valid JSON");
    expect(observations).toContain('no tool named \\"rm_rf\\"');
    expect(observations).toContain('missing required argument \\"command\\"');
    expect(rec.toolCalls.map((c) => [c.index, c.name, c.isError])).toEqual([
      [0, "(malformed)", true],
      [1, "rm_rf", true],
      [2, "bash", true],
    ]);
  });

  it("asks for a tool call when text answers do not end the trajectory", async () => {
    const opts = options(
      [{ content: "thinking aloud" }, { toolCalls: [{ name: "finish", arguments: {} }] }],
      {
        endOnTextResponse: false,
      },
    );
    const result = await runAgentLoop(opts);
    expect(result.stopReason).toBe("submitted");
    expect(result.events.map((e) => e.type)).toEqual(["no_tool_call"]);
    expect(decode(opts.inference.requests[1]?.promptIds ?? [])).toContain('"role":"user"');
  });

  it("stops at max turns", async () => {
    let n = 0;
    const steps: Step[] = Array.from({ length: 10 }, () => ({ toolCalls: [bash(`echo ${n++}`)] }));
    const result = await runAgentLoop(options(steps, { limits: { maxTurns: 3 } }));
    expect(result.stopReason).toBe("max_turns");
    expect(result.turns).toHaveLength(3);
  });

  it("detects a repeated action and ends with loop_detected", async () => {
    const result = await runAgentLoop(
      options([{ toolCalls: [bash("ls")] }], { limits: { maxRepeatedActions: 3 } }),
    );
    expect(result.stopReason).toBe("loop_detected");
    expect(result.turns).toHaveLength(3);
    expect(result.toolCallCount).toBe(2);
    expect(result.events.at(-1)?.type).toBe("loop_detected");
  });

  it("leaves room for the response and stops when the context is used up", async () => {
    let n = 0;
    const steps: Step[] = Array.from({ length: 50 }, () => ({ toolCalls: [bash(`echo ${n++}`)] }));
    const opts = options(steps, {
      limits: { maxContextTokens: 1_000, maxTokensPerTurn: 200, minResponseTokens: 100 },
    });
    const result = await runAgentLoop(opts);
    expect(result.stopReason).toBe("context_exhausted");
    for (const request of opts.inference.requests) {
      expect(request.promptIds.length + request.sampling.maxTokens).toBeLessThanOrEqual(1_000);
      expect(request.sampling.maxTokens).toBeGreaterThanOrEqual(100);
    }
  });

  it("stops when a response hits the per-turn token limit", async () => {
    const result = await runAgentLoop(options([{ content: "aaaa", finishReason: "length" }]));
    expect(result.stopReason).toBe("response_truncated");
  });

  it("stops when the wall-time budget runs out", async () => {
    let now = 0;
    const clock = { now: () => now, setTimer: () => () => undefined };
    const { toolbox } = fakeToolbox(async () => {
      now += 600;
      return ok("slow");
    });
    let n = 0;
    const steps: Step[] = Array.from({ length: 10 }, () => ({ toolCalls: [bash(`sleep ${n++}`)] }));
    const result = await runAgentLoop(options(steps, { toolbox, clock, limits: { timeBudgetMs: 1_000 } }));
    expect(result.stopReason).toBe("time_budget");
    expect(result.turns).toHaveLength(2);
  });

  it("records per-token weight versions and does not count time held by a weight-sync pause against the budget", async () => {
    let now = 0;
    const clock = { now: () => now, setTimer: () => () => undefined };
    const rec = recorder();
    const inner = fakeInference([{ toolCalls: [bash("ls")] }, { content: "done" }]);
    const inference: InferencePool = {
      releaseJob: () => undefined,
      async generate(request) {
        const result = await inner.generate(request);
        if (inner.requests.length > 1) return result;
        // The first turn waited 5 s at a paused gate and was continued under version v2.
        now += 5_000;
        return {
          ...result,
          weightVersion: "v2",
          weightVersionSpans: [
            { start: 0, end: 4, weightVersion: "v1" },
            { start: 4, end: result.responseIds.length, weightVersion: "v2" },
          ],
          pausedMs: 5_000,
        };
      },
    };
    const result = await runAgentLoop({
      ...options([], { recorder: rec.record, clock, limits: { timeBudgetMs: 1_000 } }),
      inference,
    });
    expect(result.stopReason).not.toBe("time_budget");
    expect(result.turns).toHaveLength(2);
    const firstLength = result.turns[0]?.responseIds.length ?? 0;
    expect(rec.turns.map((t) => t.weightVersionSpans)).toEqual([
      [
        { start: 0, end: 4, weightVersion: "v1" },
        { start: 4, end: firstLength, weightVersion: "v2" },
      ],
      null,
    ]);
    expect(rec.turns.map((t) => t.weightVersion)).toEqual(["v2", "v1"]);
  });

  it("rethrows the abort reason on cancel", async () => {
    const controller = new AbortController();
    const { toolbox } = fakeToolbox(async () => {
      controller.abort(new Error("cancelled by request"));
      throw new Error("connection reset");
    });
    await expect(
      runAgentLoop(options([{ toolCalls: [bash("ls")] }], { toolbox, signal: controller.signal })),
    ).rejects.toThrow("cancelled by request");
  });

  it("classifies a tool throw as a sandbox failure and a generate throw as inference", async () => {
    const { toolbox } = fakeToolbox(async () => {
      throw new Error("sandbox server exited");
    });
    const sandboxError = await runAgentLoop(options([{ toolCalls: [bash("ls")] }], { toolbox })).catch(
      (e) => e,
    );
    expect(failureOf(sandboxError)?.kind).toBe("sandbox");
    const inferenceError = await runAgentLoop(options([{ fail: new Error("ECONNREFUSED") }])).catch((e) => e);
    expect(failureOf(inferenceError)?.kind).toBe("inference");
  });

  it("ends as the policy's own (agent) failure when a tool error is blamed on the policy, keeping the trajectory", async () => {
    const rec = recorder();
    let calls = 0;
    const { toolbox } = fakeToolbox(async (_name, args) => {
      calls += 1;
      if (args.command === "kill -9 -1") {
        throw blamePolicy(
          sandboxFailure("crashed", "execution server exited with signal SIGKILL"),
          "the agent's bash call killed the execution server",
        );
      }
      return ok(`ran ${String(args.command)}`);
    });
    const error = await runAgentLoop(
      options([{ toolCalls: [bash("ls")] }, { toolCalls: [bash("kill -9 -1"), bash("never")] }], {
        toolbox,
        recorder: rec.record,
      }),
    ).catch((e: unknown) => e);
    expect([failureOf(error)?.kind, failureOf(error)?.message]).toEqual([
      "agent",
      "policy fault in tool bash: the agent's bash call killed the execution server",
    ]);
    expect(calls).toBe(2);
    expect(rec.turns.map((t) => t.index)).toEqual([0, 1]);
    expect(rec.turns[1]?.responseIds.length).toBeGreaterThan(0);
    expect(rec.toolCalls.map((c) => [c.turnIndex, c.index, c.name, c.isError, c.exitCode])).toEqual([
      [0, 0, "bash", false, 0],
      [1, 0, "bash", true, null],
    ]);
    expect(rec.toolCalls[1]?.output).toContain("killed the execution server");
  });

  it("keeps an unmarked tool error a sandbox failure and does not record it as the policy's call", async () => {
    const rec = recorder();
    const { toolbox } = fakeToolbox(async () => {
      throw sandboxFailure("closed", "connect ENOENT exec.sock");
    });
    const error = await runAgentLoop(
      options([{ toolCalls: [bash("ls")] }], { toolbox, recorder: rec.record }),
    ).catch((e: unknown) => e);
    expect([failureOf(error)?.kind, failureOf(error)?.message]).toEqual([
      "sandbox",
      "tool bash failed: connect ENOENT exec.sock",
    ]);
    expect(rec.turns).toHaveLength(1);
    expect(rec.toolCalls).toHaveLength(0);
  });

  it("records a tool result's reward on the call, under the turn that made it", async () => {
    const rec = recorder();
    const { toolbox } = fakeToolbox(async (_name, args) =>
      args.command === "query" ? { ...ok("3 rows"), reward: 0.25 } : ok("plain"),
    );
    await runAgentLoop(
      options(
        [{ toolCalls: [bash("ls")] }, { toolCalls: [bash("ls"), bash("query")] }, { content: "done" }],
        {
          toolbox,
          recorder: rec.record,
        },
      ),
    );
    expect(rec.toolCalls.map((c) => [c.turnIndex, c.index, c.reward ?? null])).toEqual([
      [0, 0, null],
      [1, 0, null],
      [1, 1, 0.25],
    ]);
    expect(rec.toolCalls[0]).not.toHaveProperty("reward");
  });

  it("fails as sandbox (the environment's) when a tool's reward is not a finite number", async () => {
    const rec = recorder();
    const { toolbox } = fakeToolbox(async () => ({ ...ok("x"), reward: Number.NaN }));
    const error = await runAgentLoop(
      options([{ toolCalls: [bash("ls")] }], { toolbox, recorder: rec.record }),
    ).catch((e: unknown) => e);
    expect([failureOf(error)?.kind, failureOf(error)?.message]).toEqual([
      "sandbox",
      'tool "bash" returned a reward that is not a finite number',
    ]);
    expect(rec.toolCalls).toHaveLength(0);
  });

  it("lets a cancel win over a marked tool error", async () => {
    const controller = new AbortController();
    const { toolbox } = fakeToolbox(async () => {
      controller.abort(new Error("cancelled by request"));
      throw blamePolicy(sandboxFailure("crashed", "killed"), "memory limit");
    });
    await expect(
      runAgentLoop(options([{ toolCalls: [bash("ls")] }], { toolbox, signal: controller.signal })),
    ).rejects.toThrow("cancelled by request");
  });
});
