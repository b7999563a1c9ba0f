// The swe handler as the server composes it (RAAS_SWE_REPOS_DIR): a full INIT → RUN → EVAL over
// the shipped fixture bundles, real bubblewrap sandboxes and an in-process simulator whose default
// script never edits anything, so the graded result is an empty patch (reward 0, trainable).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";

const SWE_DATA = fileURLToPath(new URL("../../../packages/handlers/data/swe/", import.meta.url));
const TOKEN = "swe-admin";

describe("swe handler composed by the server", () => {
  let running: RunningServer;
  let simulator: RunningSimulator;
  let sandboxDir: string;

  beforeAll(async () => {
    simulator = await startSimulator({ latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
    sandboxDir = mkdtempSync(join(tmpdir(), "raas-server-swe-"));
    const fromEnv = configFromEnv(
      parseServerEnv({ RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles"), RAAS_BACKENDS: simulator.url }),
    );
    running = await startServer({
      port: 0,
      logLevel: "silent",
      auth: { adminToken: TOKEN },
      ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
      ...(fromEnv.agentHandlers !== undefined ? { agentHandlers: fromEnv.agentHandlers } : {}),
      sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
    });
  });
  afterAll(async () => {
    await running?.close({ graceMs: 100 });
    await simulator?.close();
    rmSync(sandboxDir, { recursive: true, force: true });
  });

  it("registers swe from RAAS_SWE_REPOS_DIR and grades a rollout that changed nothing as an empty patch", async () => {
    expect(running.engine.handlerKinds()).toContain("swe");
    const [line] = readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8").split("\n");
    const instance = JSON.parse(line!);
    const { job } = await running.engine.submitJob({
      kind: "swe",
      payload: { instance, agent: { maxTurns: 2 } },
    });
    const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 120_000 });
    const done = jobs[0]!;
    expect(done.failure).toBeNull();
    expect(done).toMatchObject({ status: "completed", reward: 0, trainable: true });
    expect(done.result).toMatchObject({ resolved: false, emptyPatch: true });
    const { turns } = await running.engine.getTrajectory(job.id);
    expect(turns).toHaveLength(2);
    expect(turns[0]?.backendId).toBe(new URL(simulator.url).host);
  });
});
