// The harnesses bench's server: the swe and harness handlers over the shipped SWE fixture bundles
// (as RAAS_SWE_REPOS_DIR composes them), real bubblewrap sandboxes, and an in-process simulator
// (the labelled test double for a GPU model) playing a given policy at zero time per token, so the
// figures are the harness's, the sandbox's and the gateway's, not a model's.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { configFromEnv, parseServerEnv, startServer } from "@raas/server";
import type { TJob } from "@raas/shared";
import { type SweScriptInstance, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { type CallSample, type ChainSample, type TaskSample, turnChainCount } from "./harness-summary";

const SWE_DATA = resolve(import.meta.dirname, "../../packages/handlers/data/swe");

/** The shipped fixture instances, in file order. */
export function readSweFixtures(): SweScriptInstance[] {
  return readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SweScriptInstance);
}

export interface HarnessBenchRig {
  /** Runs one job to its end and measures it. */
  runTask(kind: "swe" | "harness", payload: Record<string, unknown>, taskId: string): Promise<TaskSample>;
  close(): Promise<void>;
}

const JOB_WAIT_MS = 900_000;

export async function startHarnessBenchRig(options: {
  policy: TPolicyConfigInput;
  /** Where recipes are installed (the server's install cache). */
  harnessCacheDir: string;
}): Promise<HarnessBenchRig> {
  const simulator = await startSimulator({
    policy: options.policy,
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
  });
  const sandboxDir = mkdtempSync(join(tmpdir(), "raas-bench-harnesses-"));
  const scratchDir = mkdtempSync(join(tmpdir(), "raas-bench-harnesses-scratch-"));
  const fromEnv = configFromEnv(
    parseServerEnv({ RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles"), RAAS_BACKENDS: simulator.url }),
  );
  const swe = fromEnv.agentHandlers ? fromEnv.agentHandlers.swe : undefined;
  const running = await startServer({
    port: 0,
    logLevel: "silent",
    ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
    agentHandlers: {
      ...fromEnv.agentHandlers,
      ...(swe && { swe: { ...swe, scratchDir } }),
      harnessCacheDir: options.harnessCacheDir,
    },
    sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
  });

  /** Calls through the gateway: each record's sizes and the gateway's own time; the certificate. */
  async function gatewaySample(jobId: string): Promise<{ calls: CallSample[]; chains: ChainSample }> {
    const records = await running.gateway.listCalls(jobId);
    const { certificate } = await running.gateway.buildTraces(jobId);
    return {
      calls: records.map((call) => ({
        promptTokens: call.promptIds.length,
        sampledTokens: call.responseIds.length,
        gatewayOverheadMs: call.overheadMs,
      })),
      chains: {
        isCertified: certificate.isCertified,
        chainCount: certificate.chainCount,
        splitChains: certificate.breaks.length,
        breakRegions: certificate.breaks.map((at) => at.region),
      },
    };
  }

  /** The built-in loop's turns, recorded token in, token out (no gateway). */
  async function turnSample(jobId: string): Promise<{ calls: CallSample[]; chains: ChainSample }> {
    const { turns } = await running.engine.getTrajectory(jobId);
    const chainCount = turnChainCount(turns);
    return {
      calls: turns.map((turn) => ({
        promptTokens: turn.promptIds.length,
        sampledTokens: turn.responseIds.length,
        gatewayOverheadMs: null,
      })),
      chains: {
        isCertified: chainCount === 1,
        chainCount,
        splitChains: Math.max(0, chainCount - 1),
        breakRegions: [],
      },
    };
  }

  return {
    async runTask(kind, payload, taskId) {
      const { job } = await running.engine.submitJob({ kind, payload });
      const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: JOB_WAIT_MS });
      const done = jobs.find((candidate) => candidate.id === job.id) as TJob;
      const { initMs, runMs, evalMs } = done.timings;
      const measured = kind === "harness" ? await gatewaySample(job.id) : await turnSample(job.id);
      if (done.failure)
        console.error(`[harnesses] ${taskId} (${kind}): ${done.failure.kind}: ${done.failure.message}`);
      return {
        taskId,
        failure: done.status === "completed" ? null : (done.failure?.kind ?? done.status),
        reward: done.reward,
        wallMs: (initMs ?? 0) + (runMs ?? 0) + (evalMs ?? 0),
        runMs: runMs ?? 0,
        ...measured,
      };
    },
    async close() {
      await running.close({ graceMs: 100 });
      await simulator.close();
      rmSync(sandboxDir, { recursive: true, force: true });
      rmSync(scratchDir, { recursive: true, force: true });
    },
  };
}
