// The same conversation through the built-in agent loop and through the inference gateway (a
// harness replaying it over HTTP, as an OpenAI client would) yields identical token streams and
// loss masks: the gateway continues earlier calls token-in/token-out, as the loop does. Both run
// against the same simulator (the labelled test double for a GPU model) behind the server's pool.
import { type AgentToolbox, defaultObservation, runAgentLoop, type ToolResult } from "@raas/engine";
import { createQwen3ChatFormat } from "@raas/inference";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const TASK = "gw-parity-1";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: {
      steps: [
        { thinking: "List the files.", toolCalls: [{ name: "bash", arguments: { command: "ls -a" } }] },
        {
          thinkingWords: 12,
          content: "Two things at once.",
          toolCalls: [
            { name: "bash", arguments: { command: "cat notes.md" } },
            { name: "python", arguments: { code: "print(6 * 7)" } },
          ],
        },
        { thinking: "Done.", content: "The notes say 42." },
      ],
    },
  },
};
const SYSTEM = "You are a careful engineer. Use the tools.";
// Both sides sample with one seed (the loop's sampling, the gateway session's job settings): without
// one the simulator samples afresh, as a real engine does, and the two conversations would differ in
// their sampled thinking and logprobs.
const SEED = 11;
const USER = `task_id: ${TASK}\nWhat do the notes say?`;
const SPECS = [
  {
    name: "bash",
    description: "Run a shell command",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
  {
    name: "python",
    description: "Run Python code",
    parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
  },
];

/** Deterministic tool results (the conversation's content, not what is under test). */
function runTool(name: string, args: Record<string, unknown>): ToolResult {
  const output =
    name === "python"
      ? "42\n"
      : args.command === "ls -a"
        ? ".\n..\nnotes.md\n"
        : "# Notes\nThe answer is 42.\n";
  return { output, exitCode: 0, isError: false, truncated: false, timedOut: false, durationMs: 1 };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

/** One stream with its loss mask from calls that each continue the previous one. */
function flatten(turns: readonly { promptIds: readonly number[]; responseIds: readonly number[] }[]) {
  const tokens: number[] = [];
  const lossMask: number[] = [];
  for (const turn of turns) {
    for (let i = tokens.length; i < turn.promptIds.length; i += 1) {
      tokens.push(turn.promptIds[i] as number);
      lossMask.push(0);
    }
    for (const id of turn.responseIds) {
      tokens.push(id);
      lossMask.push(1);
    }
  }
  return { tokens, lossMask };
}

describe("built-in agent loop vs. the gateway", () => {
  let running: RunningServer;
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startSimulator({ policy, latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
    running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      inference: { backends: [{ kind: "vllm", baseUrl: simulator.url, modelName: null }] },
    });
  }, 60_000);

  afterAll(async () => {
    await running?.close({ graceMs: 0 });
    await simulator?.close();
  });

  it("yields identical token streams and loss masks", async () => {
    const toolbox: AgentToolbox = {
      specs: SPECS,
      call: async (name, args) => runTool(name, args),
    };
    const loop = await runAgentLoop({
      jobId: "parity-loop",
      inference: running.inference,
      chatFormat: createQwen3ChatFormat(),
      sampling: { seed: SEED },
      toolbox,
      systemPrompt: SYSTEM,
      userMessage: USER,
    });
    expect(loop.stopReason).toBe("final_answer");
    expect(loop.turns).toHaveLength(3);

    // A harness: OpenAI chat API with tools, running the same tools, until the model answers in text.
    const { job } = await running.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    // The seed is the job's sampling setting, as the harness handler opens the session: the
    // gateway samples with the job's settings, never with a harness's own.
    const session = running.gateway.openSession(job.id, { settings: { seed: SEED }, mode: "override" });
    const messages: Json[] = [
      { role: "system", content: SYSTEM },
      { role: "user", content: USER },
    ];
    const tools = SPECS.map((spec) => ({ type: "function", function: spec }));
    for (let turn = 0; turn < 10; turn += 1) {
      const response = await fetch(`${running.url}/gateway/${session.token}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: running.defaultModelName, messages, tools }),
      });
      expect(response.status).toBe(200);
      const message = ((await response.json()) as Json).choices[0].message;
      messages.push(message);
      if (!message.tool_calls) break;
      for (const call of message.tool_calls) {
        const args = JSON.parse(call.function.arguments);
        const result = runTool(call.function.name, args);
        messages.push({
          role: "tool",
          tool_call_id: call.id,
          content: defaultObservation({ name: call.function.name, arguments: args }, result),
        });
      }
    }

    const traces = await running.gateway.buildTraces(job.id);
    expect(traces.certificate).toMatchObject({ isCertified: true, callCount: 3, chainCount: 1, breaks: [] });
    const [chain] = traces.chains;
    const expected = flatten(loop.turns);
    expect(chain?.tokens).toEqual(expected.tokens);
    expect(chain?.lossMask).toEqual(expected.lossMask);
    expect(chain?.logprobs.filter((logprob) => logprob !== null)).toEqual(
      loop.turns.flatMap((t) => t.logprobs),
    );
    await running.engine.cancel({ jobId: job.id });
  });
});
