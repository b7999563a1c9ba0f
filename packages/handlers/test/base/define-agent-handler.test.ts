// The handler base through a real RolloutEngine with fake ports: failure kinds and sandbox cleanup.

import {
  type ChatFormat,
  type GenerateResult,
  HandlerRegistry,
  type InferencePool,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  type Sandbox,
  type SandboxRuntime,
} from "@raas/engine";
import { blamePolicy, sandboxFailure, stageFailure } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ZAgentTaskBase } from "../../src/base/agent-payload.schema";
import { defineAgentHandler } from "../../src/base/define-agent-handler";

const encode = (text: string) => [...text].map((c) => c.charCodeAt(0));
const decode = (ids: readonly number[]) => String.fromCharCode(...ids);
const chatFormat: ChatFormat = {
  family: "fake",
  stopTokenIds: [0],
  renderInitialPrompt: (input) => encode(`${input.systemPrompt}|${input.userMessage}|`),
  parseResponse: (ids) => {
    const text = decode(ids);
    return text.startsWith("CALL:")
      ? {
          thinking: null,
          content: "",
          toolCalls: [{ name: "python", arguments: { code: text.slice(5) } }],
          callErrors: [],
        }
      : { thinking: null, content: text, toolCalls: [], callErrors: [] };
  },
  renderObservations: () => encode("|obs|"),
  decode,
};

function fakeInference(mode: "answer" | "down" | "overflow" | "tool"): InferencePool {
  return {
    releaseJob: () => undefined,
    async generate(request): Promise<GenerateResult> {
      if (mode === "down") throw new Error("connect ECONNREFUSED 127.0.0.1:8000");
      const text = { answer: "42", tool: "CALL:import os; os.kill(1, 9)" }[mode as "answer" | "tool"];
      const responseIds = encode(text ?? "x".repeat(request.sampling.maxTokens));
      return {
        responseIds,
        logprobs: responseIds.map(() => -0.1),
        finishReason: mode === "overflow" ? "length" : "stop",
        backendId: "b",
        weightVersion: null,
        cachedPromptTokens: 0,
        latencyMs: 1,
      };
    },
  };
}

function fakeRuntime(options: { failCreate?: boolean; toolError?: Error } = {}) {
  const sandboxes: { closed: boolean }[] = [];
  const runtime: SandboxRuntime = {
    name: "fake",
    toolSpecs: [{ name: "python", description: "py", parameters: { type: "object" } }],
    onEvent: () => () => undefined,
    closeAll: async () => undefined,
    async create() {
      if (options.failCreate) throw new Error("bwrap: setting up uid map: Permission denied");
      const state = { closed: false };
      sandboxes.push(state);
      const sandbox: Sandbox = {
        id: `sbx-${sandboxes.length}`,
        get state() {
          return state.closed ? "closed" : "ready";
        },
        runTool: async () => {
          if (options.toolError) throw options.toolError;
          return {
            output: "",
            exitCode: 0,
            isError: false,
            truncated: false,
            timedOut: false,
            durationMs: 0,
          };
        },
        exec: async () => ({
          exitCode: 0,
          signal: null,
          stdout: "",
          stderr: "",
          timedOut: false,
          truncated: false,
          durationMs: 0,
        }),
        readFile: async () => new Uint8Array(),
        writeFile: async () => undefined,
        close: async () => {
          state.closed = true;
        },
      };
      return sandbox;
    },
  };
  return { runtime, sandboxes };
}

const createEchoHandler = defineAgentHandler({
  kind: "echo",
  description: "test",
  payloadSchema: ZAgentTaskBase.extend({ answer: z.string() }),
  tools: ["python"],
  systemPrompt: () => "sys",
  userMessage: (p) => `Task id: ${p.taskId}`,
  evaluate: async ({ payload, run }) => {
    if (payload.answer === "broken-grader") throw stageFailure("eval", "grader crashed");
    return { reward: run.finalContent === payload.answer ? 1 : 0, result: { seen: run.finalContent } };
  },
});

const createStrictHandler = defineAgentHandler({
  kind: "echo",
  description: "test, with a negative failure reward",
  payloadSchema: ZAgentTaskBase.extend({ answer: z.string() }),
  tools: ["python"],
  systemPrompt: () => "sys",
  userMessage: (p) => `Task id: ${p.taskId}`,
  evaluate: async () => ({ reward: 1 }),
  failureReward: -1,
});

const engines: RolloutEngine[] = [];
afterEach(async () => {
  while (engines.length > 0) await engines.pop()?.stop({ graceMs: 10 });
});

async function runOne(
  inference: InferencePool,
  runtime: SandboxRuntime,
  answer = "42",
  agent?: object,
  create: typeof createEchoHandler = createEchoHandler,
) {
  const engine = new RolloutEngine({
    store: new MemoryJobStore(),
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry().register(create({ sandboxRuntime: runtime, inference, chatFormat })),
  });
  engines.push(engine);
  await engine.start();
  const { job } = await engine.submitJob({ kind: "echo", payload: { taskId: "t-1", answer, agent } });
  const { jobs } = await engine.waitForJobs([job.id], { timeoutMs: 10_000 });
  return jobs[0];
}

describe("defineAgentHandler", () => {
  it("completes with the handler's reward plus the agent summary and token-drift report", async () => {
    const { runtime, sandboxes } = fakeRuntime();
    const job = await runOne(fakeInference("answer"), runtime);
    expect(job).toMatchObject({
      status: "completed",
      reward: 1,
      trainable: true,
      result: {
        seen: "42",
        agent: { stopReason: "final_answer", turns: 1 },
        tokenDrift: { isConsistent: true, turnsChecked: 1 },
      },
    });
    expect(sandboxes.map((s) => s.closed)).toEqual([true]);
  });

  it("samples every turn with the server's defaults under the job's `agent` settings, and records them", async () => {
    const { runtime } = fakeRuntime();
    const requests: unknown[] = [];
    const answering = fakeInference("answer");
    const inference: InferencePool = {
      ...answering,
      generate: (request) => {
        requests.push(request.sampling);
        return answering.generate(request);
      },
    };
    const engine = new RolloutEngine({
      store: new MemoryJobStore(),
      queue: new MemoryJobQueue(),
      handlers: new HandlerRegistry().register(
        createEchoHandler({
          sandboxRuntime: runtime,
          inference,
          chatFormat,
          defaults: { sampling: { temperature: 1, topP: 0.8 } },
        }),
      ),
    });
    engines.push(engine);
    await engine.start();
    const agent = { temperature: 0.3, seed: 9, maxTokensPerTurn: 64, harnessSampling: "reject" };
    const { job } = await engine.submitJob({ kind: "echo", payload: { taskId: "t-1", answer: "42", agent } });
    const { jobs } = await engine.waitForJobs([job.id], { timeoutMs: 10_000 });
    expect(jobs[0]?.status).toBe("completed");
    const used = { temperature: 0.3, topP: 0.8, topK: -1, seed: 9, maxTokens: 64 };
    expect(requests).toEqual([{ temperature: 0.3, topP: 0.8, seed: 9, maxTokens: 64, stopTokenIds: [0] }]);
    const { turns } = await engine.getTrajectory(job.id);
    expect(turns.map((turn) => turn.sampling)).toEqual([used]);
    const exported = await engine.exportTrajectory(job.id);
    expect(exported.turns.map((turn) => turn.sampling)).toEqual([used]);
  });

  it("reports inference down as an `inference` failure, not a reward, and closes the sandbox", async () => {
    const { runtime, sandboxes } = fakeRuntime();
    const job = await runOne(fakeInference("down"), runtime);
    expect(job).toMatchObject({
      status: "failed",
      reward: null,
      trainable: false,
      failure: { kind: "inference", stage: "run" },
    });
    expect(sandboxes.map((s) => s.closed)).toEqual([true]);
  });

  it("reports a sandbox that cannot start as a `sandbox` failure in INIT", async () => {
    const job = await runOne(fakeInference("answer"), fakeRuntime({ failCreate: true }).runtime);
    expect(job).toMatchObject({
      status: "failed",
      reward: null,
      trainable: false,
      failure: { kind: "sandbox", stage: "init" },
    });
  });

  it("fails a context overflow as `agent` (trainable)", async () => {
    const overflow = await runOne(fakeInference("overflow"), fakeRuntime().runtime, "42", {
      maxContextTokens: 300,
    });
    expect(overflow).toMatchObject({
      status: "failed",
      trainable: true,
      reward: 0,
      failure: { kind: "agent", stage: "run" },
    });
    expect(overflow?.failure?.message).toContain("context_exhausted");
    const strict = await runOne(
      fakeInference("overflow"),
      fakeRuntime().runtime,
      "42",
      { maxContextTokens: 300 },
      createStrictHandler,
    );
    expect([strict?.failure?.kind, strict?.trainable, strict?.reward]).toEqual(["agent", true, -1]);
  });

  it("fails a tool call the sandbox marks as the policy's fault as `agent` with the failure reward", async () => {
    const toolError = blamePolicy(
      sandboxFailure("crashed", "execution server exited"),
      "the agent's python call killed the execution server",
    );
    const { runtime, sandboxes } = fakeRuntime({ toolError });
    const job = await runOne(fakeInference("tool"), runtime, "42", undefined, createStrictHandler);
    expect(job).toMatchObject({
      status: "failed",
      trainable: true,
      reward: -1,
      failure: {
        kind: "agent",
        stage: "run",
        message: "policy fault in tool python: the agent's python call killed the execution server",
      },
    });
    expect(sandboxes.map((s) => s.closed)).toEqual([true]);
  });

  it("keeps an unmarked tool error a `sandbox` failure with no reward (restarted until out of attempts)", async () => {
    const { runtime } = fakeRuntime({ toolError: new Error("connect ENOENT /tmp/sbx/exec.sock") });
    const job = await runOne(fakeInference("tool"), runtime, "42", undefined, createStrictHandler);
    expect(job).toMatchObject({
      status: "failed",
      trainable: false,
      reward: null,
      attempts: 3,
      failure: {
        kind: "sandbox",
        stage: "run",
        message:
          "tool python failed: connect ENOENT /tmp/sbx/exec.sock; not restarted again after 3 attempt(s) (maxAttempts 3)",
      },
    });
  });

  it("fails a broken grader as `eval`, never as reward 0", async () => {
    const job = await runOne(fakeInference("answer"), fakeRuntime().runtime, "broken-grader");
    expect(job).toMatchObject({
      status: "failed",
      reward: null,
      trainable: false,
      failure: { kind: "eval" },
    });
  });
});
