// A RolloutEngine running the reward-fn handler on real bubblewrap sandboxes, driven by a scripted
// policy: a labelled test double for the model, as the simulator is for the app tests. Each task
// id has a script of turns: tool calls, or a final text message. Once a script ends the policy
// calls `submit` without an answer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChatFormat,
  type GenerateResult,
  HandlerRegistry,
  type InferencePool,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
} from "@raas/engine";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { createRewardFnHandler } from "../../../src/reward-fn/reward-fn-handler";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

type ToolCall = { name: string; arguments: Record<string, unknown> };
/** One turn of a script: the tool calls the policy makes, or its final message. */
export type ScriptedTurn = ToolCall[] | { text: string };

const encode = (text: string) => Array.from(text, (c) => c.codePointAt(0) ?? 0);
const decode = (ids: readonly number[]) => ids.map((id) => String.fromCodePoint(id)).join("");

/** Responses are `CALL:<json tool calls>` or plain text; observations keep the prompt growing. */
const chatFormat: ChatFormat = {
  family: "scripted-test",
  stopTokenIds: [0],
  renderInitialPrompt: (input) => encode(`${input.systemPrompt}\n${input.userMessage}\n`),
  parseResponse: (ids) => {
    const text = decode(ids);
    if (!text.startsWith("CALL:")) return { thinking: null, content: text, toolCalls: [], callErrors: [] };
    return {
      thinking: null,
      content: "",
      toolCalls: JSON.parse(text.slice(5)) as ToolCall[],
      callErrors: [],
    };
  },
  renderObservations: ({ observations }) => encode(`\n[${observations.length} observations]\n`),
  decode,
};

function scriptedInference(scripts: Map<string, ScriptedTurn[]>): InferencePool {
  const turnOf = new Map<string, number>();
  return {
    releaseJob: () => undefined,
    async generate(request): Promise<GenerateResult> {
      const taskId = /Task id: (\S+)/.exec(decode(request.promptIds))?.[1] ?? "";
      const turn = turnOf.get(request.jobId) ?? 0;
      turnOf.set(request.jobId, turn + 1);
      const step = scripts.get(taskId)?.[turn] ?? [{ name: "submit", arguments: {} }];
      const responseIds = encode(Array.isArray(step) ? `CALL:${JSON.stringify(step)}` : step.text);
      return {
        responseIds,
        logprobs: responseIds.map(() => -0.5),
        finishReason: "stop",
        backendId: "scripted",
        weightVersion: null,
        cachedPromptTokens: 0,
        latencyMs: 1,
      };
    },
  };
}

export const submit = (answer: string): ScriptedTurn => [{ name: "submit", arguments: { answer } }];
export const python = (code: string): ScriptedTurn => [{ name: "python", arguments: { code } }];

export interface RewardFnEngine {
  engine: RolloutEngine;
  runtime: BubblewrapRuntime;
  /** Sets the script of a task id (before its job is submitted). */
  script(taskId: string, turns: ScriptedTurn[]): void;
  close(): Promise<void>;
}

export async function startRewardFnEngine(): Promise<RewardFnEngine> {
  const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
  if (!bwrapPath) throw new Error("reward-fn tests need bubblewrap: apt-get install -y bubblewrap");
  const baseDir = mkdtempSync(join(tmpdir(), "raas-reward-fn-test-"));
  const runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });
  const scripts = new Map<string, ScriptedTurn[]>();
  const engine = new RolloutEngine({
    store: new MemoryJobStore(),
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry().register(
      createRewardFnHandler({
        sandboxRuntime: runtime,
        inference: scriptedInference(scripts),
        chatFormat,
        // Large enough for the huge-answer attack to reach the verifier whole.
        defaults: { limits: { maxContextTokens: 1_048_576, maxTokensPerTurn: 262_144 } },
      }),
    ),
  });
  await engine.start();
  return {
    engine,
    runtime,
    script: (taskId, turns) => scripts.set(taskId, turns),
    close: async () => {
      await engine.stop({ graceMs: 1_000 });
      await runtime.closeAll();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
