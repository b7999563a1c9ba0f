// A server as its env composes it without swe (the `harness` handler is there all the same), real
// bubblewrap sandboxes, and an in-process simulator (the labelled test double for a GPU model)
// scripted per task id: the model of harness jobs on any kind.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyTaskHandler } from "@raas/engine";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { expect } from "vitest";
import { configFromEnv } from "../../src/config-from-env";
import { parseServerEnv } from "../../src/env";
import { type RunningServer, startServer } from "../../src/server";

type ScriptedTasks = NonNullable<Extract<TPolicyConfigInput, { kind: "scripted" }>["tasks"]>;
type ScriptStep = ScriptedTasks[string]["steps"][number];

/** A scripted turn calling one tool. */
export const call = (name: string, args: Record<string, unknown> = {}): ScriptStep => ({
  toolCalls: [{ name, arguments: args }],
});

export interface ScriptedHarnessServer {
  running: RunningServer;
  simulator: RunningSimulator;
  /** Submits one job and waits for it to end; returns the finished job. */
  runJob(request: {
    kind: string;
    payload: unknown;
    timeoutsMs?: Record<string, number>;
  }): Promise<FinishedJob>;
  close(): Promise<void>;
}

type FinishedJob = Awaited<ReturnType<RunningServer["engine"]["waitForJobs"]>>["jobs"][number];

/** The server; `tasks` script the simulator by task id; `handlers` are registered besides the built-in ones. */
export async function startScriptedHarnessServer(options: {
  name: string;
  tasks: ScriptedTasks;
  handlers?: AnyTaskHandler[];
}): Promise<ScriptedHarnessServer> {
  const simulator = await startSimulator({
    policy: { kind: "scripted", tasks: options.tasks },
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
  });
  const sandboxDir = mkdtempSync(join(tmpdir(), `raas-${options.name}-`));
  const fromEnv = configFromEnv(parseServerEnv({ RAAS_BACKENDS: simulator.url }));
  const running = await startServer({
    port: 0,
    logLevel: "silent",
    ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
    ...(fromEnv.agentHandlers ? { agentHandlers: fromEnv.agentHandlers } : {}),
    sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
    ...(options.handlers ? { handlers: options.handlers } : {}),
  });
  return {
    running,
    simulator,
    async runJob(request) {
      const { job } = await running.engine.submitJob(
        request as Parameters<RunningServer["engine"]["submitJob"]>[0],
      );
      const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 300_000 });
      const [done] = jobs;
      expect(done?.id).toBe(job.id);
      return done as FinishedJob;
    },
    async close() {
      await running.close({ graceMs: 100 });
      await simulator.close();
      rmSync(sandboxDir, { recursive: true, force: true });
    },
  };
}
