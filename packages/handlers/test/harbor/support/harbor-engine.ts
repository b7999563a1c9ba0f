// A RolloutEngine running the harbor handler on real bubblewrap sandboxes, driven by a scripted
// policy: a labelled test double for the model, as the simulator is for the app tests. Each task
// id has a script of turns (tool calls); once a script ends the policy calls `submit`.
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
import { createHarborHandler } from "../../../src/harbor/harbor-handler";
import type { THarborTask } from "../../../src/harbor/harbor-task.schema";
import { harborOracleScript } from "../../../src/harbor/harbor-task-loader";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

type ToolCall = { name: string; arguments: Record<string, unknown> };
/** One turn of a script: the tool calls the policy makes. */
export type ScriptedTurn = ToolCall[];

const encode = (text: string) => Array.from(text, (c) => c.codePointAt(0) ?? 0);
const decode = (ids: readonly number[]) => ids.map((id) => String.fromCodePoint(id)).join("");

/** Responses are `CALL:<json tool calls>`; observations are rendered so prompts keep growing. */
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
      const calls = scripts.get(taskId)?.[turn] ?? [{ name: "submit", arguments: {} }];
      const responseIds = encode(`CALL:${JSON.stringify(calls)}`);
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

/** The oracle as a policy: one python call that runs the task's solve.sh (paths mapped) in the workspace. */
export function oracleTurns(task: THarborTask): ScriptedTurn[] {
  const script = harborOracleScript(task);
  if (script === null) throw new Error(`task ${task.name} has no solution/solve.sh`);
  const code = [
    "import subprocess",
    `r = subprocess.run(["bash", "-c", ${JSON.stringify(script)}], cwd="/workspace", capture_output=True, text=True, stdin=subprocess.DEVNULL)`,
    "print(r.returncode, r.stdout[-2000:], r.stderr[-2000:])",
  ].join("\n");
  return [[{ name: "python", arguments: { code } }]];
}

export const bash = (command: string): ToolCall => ({ name: "bash", arguments: { command } });

export interface HarborEngine {
  engine: RolloutEngine;
  /** Sets the script of a task id (before its job is submitted). */
  script(taskId: string, turns: ScriptedTurn[]): void;
  close(): Promise<void>;
}

export async function startHarborEngine(): Promise<HarborEngine> {
  const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
  if (!bwrapPath) throw new Error("harbor tests need bubblewrap: apt-get install -y bubblewrap");
  const baseDir = mkdtempSync(join(tmpdir(), "raas-harbor-test-"));
  const runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });
  const scripts = new Map<string, ScriptedTurn[]>();
  const engine = new RolloutEngine({
    store: new MemoryJobStore(),
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry().register(
      createHarborHandler({ sandboxRuntime: runtime, inference: scriptedInference(scripts), chatFormat }),
    ),
  });
  await engine.start();
  return {
    engine,
    script: (taskId, turns) => scripts.set(taskId, turns),
    close: async () => {
      await engine.stop({ graceMs: 1_000 });
      await runtime.closeAll();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
