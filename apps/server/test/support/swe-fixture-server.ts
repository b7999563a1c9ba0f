// The shipped SWE fixtures (packages/handlers/data/swe) and a server that runs the swe and harness
// handlers over them the way RAAS_SWE_REPOS_DIR composes it: real bubblewrap sandboxes and an
// in-process simulator (the labelled test double for a GPU model) on a given script.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadModelFamily, type ModelFamilyConfig } from "@raas/compose";
import type { ModelFamilyAdapter } from "@raas/inference";
import type { TGatewayTraces } from "@raas/shared";
import {
  expressScripts,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from "@raas/simulator";
import pino from "pino";
import { expect } from "vitest";
import { configFromEnv } from "../../src/config-from-env";
import { parseServerEnv } from "../../src/env";
import { type RunningServer, startServer } from "../../src/server";

export const SWE_DATA = fileURLToPath(new URL("../../../../packages/handlers/data/swe/", import.meta.url));

/**
 * The traces of the shipped example harness solving a fixture. Its script: look, apply the patch,
 * diff --stat, submit — four calls, one exact chain, with sampled tokens to train on.
 */
export function expectExampleHarnessTraces(traces: TGatewayTraces): void {
  expect(traces.certificate).toMatchObject({
    isCertified: true,
    callCount: 4,
    chainCount: 1,
    callsMerged: 3,
  });
  expect(traces.chains[0]?.lossMask.filter((bit) => bit === 1).length).toBeGreaterThan(0);
}

/**
 * The argv of a harness job running the test harness that rewrites its history
 * (`packages/handlers/data/harness/rewriting_harness.py`: a break, then an exact continuation).
 */
export function rewritingHarnessCommand(taskId: string): string[] {
  const script = readFileSync(join(SWE_DATA, "../harness/rewriting_harness.py"), "utf8");
  return ["python3", "-c", script, taskId];
}

export interface SweFixtureInstance {
  instance_id: string;
  repo: string;
  patch: string;
  version?: string;
}

/** The shipped fixture instances, in file order. */
export const SWE_INSTANCES: SweFixtureInstance[] = readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as SweFixtureInstance);

export interface SweFixtureServer {
  running: RunningServer;
  simulator: RunningSimulator;
  /** Script steps rewritten so that the model family can write them (`expressScripts`). */
  scriptRewrites: string[];
  /** The family both speak, when one was given. */
  family: ModelFamilyAdapter | undefined;
  close(): Promise<void>;
}

/** A server with the swe handlers over the fixture bundles; `policy` scripts the simulator. */
export async function startSweFixtureServer(options: {
  adminToken: string;
  /** Prefix of the temporary sandbox and scratch directories. */
  name: string;
  policy?: SimulatorOptions["policy"];
  /** Puts a server in front of the simulator (a recording fake backend); the server uses its URL. */
  backendInFront?: (simulatorUrl: string) => Promise<{ url: string; close(): Promise<void> }>;
  /** The policy model's family, served by the simulator and spoken by the server; default Qwen3. */
  model?: ModelFamilyConfig;
}): Promise<SweFixtureServer> {
  const family = options.model && (await loadModelFamily(options.model, pino({ level: "silent" })));
  let policy = options.policy;
  let scriptRewrites: string[] = [];
  if (family && policy?.kind === "scripted" && policy.tasks) {
    const expressed = expressScripts(family, policy.tasks);
    policy = { ...policy, tasks: expressed.tasks };
    scriptRewrites = expressed.rewrites;
  }
  const simulator = await startSimulator({
    ...(policy && { policy }),
    ...(family && { family }),
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
  });
  const inFront = options.backendInFront ? await options.backendInFront(simulator.url) : null;
  const sandboxDir = mkdtempSync(join(tmpdir(), `raas-${options.name}-`));
  const scratchDir = mkdtempSync(join(tmpdir(), `raas-${options.name}-scratch-`));
  const fromEnv = configFromEnv(
    parseServerEnv({
      RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles"),
      RAAS_BACKENDS: inFront?.url ?? simulator.url,
    }),
  );
  const swe = fromEnv.agentHandlers ? fromEnv.agentHandlers.swe : undefined;
  const running = await startServer({
    port: 0,
    logLevel: "silent",
    auth: { adminToken: options.adminToken },
    ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
    ...(options.model && { model: options.model }),
    agentHandlers: { ...fromEnv.agentHandlers, ...(swe && { swe: { ...swe, scratchDir } }) },
    sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
  });
  return {
    running,
    simulator,
    scriptRewrites,
    family,
    async close() {
      await running.close({ graceMs: 100 });
      await inFront?.close();
      await simulator.close();
      rmSync(sandboxDir, { recursive: true, force: true });
      rmSync(scratchDir, { recursive: true, force: true });
    },
  };
}
