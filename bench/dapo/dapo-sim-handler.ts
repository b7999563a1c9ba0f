// A bench-only handler: RUN is the engine's real multi-turn agent loop against the inference pool
// (the simulator over HTTP), with a bash tool that only waits (no sandbox: 2 cores could not
// start one per trajectory at this rate); EVAL reads the answer the simulator's policy submitted.
import {
  type AgentToolbox,
  type ChatFormat,
  type InferencePool,
  runAgentLoop,
  sleep,
  type TaskHandler,
  type ToolSpec,
} from "@raas/engine";
import { z } from "zod";
import { createRandom } from "../scale/random";
import { DAPO_TASK_KIND } from "./dapo-workload";

const ZDapoPayload = z
  .object({
    taskId: z.string().min(1),
    problemWords: z.number().int().min(1).max(10_000),
    agent: z.object({ seed: z.number().int().optional(), temperature: z.number().optional() }).optional(),
  })
  .strict();
export type TDapoPayload = z.infer<typeof ZDapoPayload>;

interface DapoRunOutput {
  answer: string | null;
  turns: number;
}

const TOOLS: ToolSpec[] = [
  {
    name: "bash",
    description: "Run a shell command in the task's workspace.",
    parameters: {
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
      additionalProperties: false,
    },
  },
  {
    name: "submit",
    description: "Submit the final answer and end the task.",
    parameters: {
      type: "object",
      properties: { answer: { type: "string" } },
      additionalProperties: false,
    },
  },
];

const WORDS = ["file", "test", "value", "line", "error", "module", "output", "result", "path", "trace"];

function filler(seed: number, count: number): string {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
}

/** A bash tool that takes `latencyMs` (a sandbox's command time) and prints 10–60 words. */
function waitingToolbox(latencyMs: number, seed: number): AgentToolbox {
  let calls = 0;
  return {
    specs: TOOLS,
    async call(_name, _args, { signal }) {
      calls += 1;
      await sleep(latencyMs, signal);
      const output = filler(seed * 31 + calls, 10 + ((seed + calls * 17) % 50));
      return {
        output,
        exitCode: 0,
        isError: false,
        truncated: false,
        timedOut: false,
        durationMs: latencyMs,
      };
    },
  };
}

export interface DapoSimHandlerDeps {
  inference: InferencePool;
  chatFormat: ChatFormat;
  /** Time of one bash call, ms. */
  toolLatencyMs: number;
}

export function createDapoSimHandler(
  deps: DapoSimHandlerDeps,
): TaskHandler<TDapoPayload, null, DapoRunOutput> {
  return {
    kind: DAPO_TASK_KIND,
    description: "bench only: simulated agent task, reward from the simulator's scripted answer",
    payloadSchema: ZDapoPayload,
    async init() {
      return null;
    },
    async run(ctx) {
      const seed = ctx.payload.agent?.seed;
      const loop = await runAgentLoop({
        jobId: ctx.job.id,
        inference: deps.inference,
        chatFormat: deps.chatFormat,
        toolbox: waitingToolbox(deps.toolLatencyMs, seed ?? 0),
        systemPrompt: "You are a software agent. Use bash to inspect the task, then submit your answer.",
        // The simulator reads `task_id:` from the first user message to pick the task's script.
        userMessage: `task_id: ${ctx.payload.taskId}\n\n${filler(ctx.payload.taskId.length * 7 + ctx.payload.problemWords, ctx.payload.problemWords)}`,
        sampling: {
          temperature: ctx.payload.agent?.temperature ?? 1,
          ...(seed === undefined ? {} : { seed }),
        },
        limits: { maxTurns: 64, maxTokensPerTurn: 1_024, maxRepeatedActions: 0 },
        enableThinking: true,
        recorder: ctx.record,
        signal: ctx.signal,
      });
      const answer = loop.submission?.arguments.answer;
      return { answer: typeof answer === "string" ? answer : null, turns: loop.turns.length };
    },
    async eval(ctx) {
      return { reward: ctx.run.answer === "correct" ? 1 : 0, result: { answer: ctx.run.answer } };
    },
  };
}
