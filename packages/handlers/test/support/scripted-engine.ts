// A RolloutEngine running one agent handler on real bubblewrap sandboxes, driven by the oracle's
// scripted policy: a labelled test double for the model, as the simulator is for the app tests.
// Each task id has a script of turns (tool calls, or a final text message); once a script ends
// the policy calls `submit` without an answer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  type TaskHandler,
} from "@raas/engine";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import type { TJob, TSubmitJobRequest } from "@raas/shared";
import type { AgentHandlerDeps } from "../../src/base/agent-handler.types";
import { createOraclePolicy, type OracleTurn, oracleChatFormat } from "../../src/oracle/oracle-policy";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** One turn of a script: the tool calls the policy makes, or its final message. */
export type ScriptedTurn = OracleTurn;

export interface ScriptedEngine {
  engine: RolloutEngine;
  runtime: BubblewrapRuntime;
  /** Sets the script of a task id (before its job is submitted). */
  script(taskId: string, turns: ScriptedTurn[]): void;
  /**
   * Submits `requests`, waits for their jobs to end (at most `timeoutMs`, default 600_000), and
   * returns each job by its payload's `taskId`.
   */
  runJobs(requests: readonly TSubmitJobRequest[], timeoutMs?: number): Promise<Map<string, TJob>>;
  /** What a job's tool calls returned, one output a line. */
  toolOutputs(jobId: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts an engine with the one handler `createHandler` builds from the sandbox runtime and policy. */
export async function startScriptedEngine<P, I, R>(
  name: string,
  createHandler: (deps: AgentHandlerDeps) => TaskHandler<P, I, R>,
): Promise<ScriptedEngine> {
  const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
  if (!bwrapPath) throw new Error(`${name} tests need bubblewrap: apt-get install -y bubblewrap`);
  const baseDir = mkdtempSync(join(tmpdir(), `raas-${name}-test-`));
  const runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });
  // Any task id: test jobs are not named with the oracle check's prefix.
  const policy = createOraclePolicy({ taskIdPattern: /Task id: (\S+)/ });
  const engine = new RolloutEngine({
    store: new MemoryJobStore(),
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry().register(
      createHandler({ sandboxRuntime: runtime, inference: policy.inference, chatFormat: oracleChatFormat }),
    ),
  });
  await engine.start();
  return {
    engine,
    runtime,
    script: policy.script,
    async runJobs(requests, timeoutMs = 600_000) {
      const submitted = await engine.submitJobs(requests);
      const { jobs } = await engine.waitForJobs(
        submitted.map((s) => s.job.id),
        { timeoutMs },
      );
      return new Map(jobs.map((job) => [(job.payload as { taskId: string }).taskId, job]));
    },
    async toolOutputs(jobId) {
      const { toolCalls } = await engine.getTrajectory(jobId);
      return toolCalls.map((call) => String((call as { output?: unknown }).output ?? "")).join("\n");
    },
    close: async () => {
      await engine.stop({ graceMs: 1_000 });
      await runtime.closeAll();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
