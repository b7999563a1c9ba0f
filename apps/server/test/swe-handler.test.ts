// The swe handler as the server composes it (RAAS_SWE_REPOS_DIR): a full INIT → RUN → EVAL over
// the shipped fixture bundles, real bubblewrap sandboxes and an in-process simulator whose default
// script never edits anything, so the graded result is an empty patch (reward 0, trainable).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { loadServerEnvFiles } from "../src/env-files";
import { type RunningServer, startServer } from "../src/server";

const SWE_DATA = fileURLToPath(new URL("../../../packages/handlers/data/swe/", import.meta.url));
const TOKEN = "swe-admin";
const INSTANCES = readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { instance_id: string; repo: string; version?: string });

describe("swe handler composed by the server", () => {
  let running: RunningServer;
  let simulator: RunningSimulator;
  let sandboxDir: string;
  let scratchDir: string;

  beforeAll(async () => {
    simulator = await startSimulator({ latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
    sandboxDir = mkdtempSync(join(tmpdir(), "raas-server-swe-"));
    scratchDir = mkdtempSync(join(tmpdir(), "raas-server-swe-scratch-"));
    const fromEnv = configFromEnv(
      parseServerEnv({ RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles"), RAAS_BACKENDS: simulator.url }),
    );
    const swe = fromEnv.agentHandlers ? fromEnv.agentHandlers.swe : undefined;
    running = await startServer({
      port: 0,
      logLevel: "silent",
      auth: { adminToken: TOKEN },
      ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
      agentHandlers: { ...fromEnv.agentHandlers, ...(swe && { swe: { ...swe, scratchDir } }) },
      sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
    });
  });
  afterAll(async () => {
    await running?.close({ graceMs: 100 });
    await simulator?.close();
    rmSync(sandboxDir, { recursive: true, force: true });
    rmSync(scratchDir, { recursive: true, force: true });
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

  it("removes the repositories it unpacked when the server closes", async () => {
    const unpacked = `${INSTANCES[0]!.repo.replace("/", "__")}.git`;
    expect(readdirSync(scratchDir)).toContain(unpacked);
    await running.close({ graceMs: 100 });
    expect(readdirSync(scratchDir)).toEqual([]);
  });
});

describe("swe specs file and image pattern from the environment", () => {
  let running: RunningServer;
  let dir: string;
  let sandboxDir: string;
  const [withSpec, withoutSpec] = [INSTANCES[0]!, INSTANCES[1]!];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-server-swe-env-"));
    // Sandboxes may run as another uid: their base directory sits directly under the temp dir.
    sandboxDir = mkdtempSync(join(tmpdir(), "raas-server-swe-env-sandboxes-"));
    const specsFile = join(dir, "specs.json");
    // The spec's image (the host's root as a rootfs) wins over the pattern; its setup then fails.
    writeFileSync(
      specsFile,
      JSON.stringify({
        [withSpec.repo]: { image: "/", setupCommands: ["echo raas-spec-setup-ran; exit 7"] },
      }),
    );
    const env = parseServerEnv({
      RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles"),
      RAAS_SWE_SPECS_FILE: specsFile,
      RAAS_SWE_IMAGE_PATTERN: `${dir}/images/{repo}__{version}.sif:${dir}/rootfs/{instance_id}`,
    });
    const fromEnv = configFromEnv(env, await loadServerEnvFiles(env));
    running = await startServer({
      port: 0,
      logLevel: "silent",
      auth: { adminToken: TOKEN },
      ...(fromEnv.agentHandlers !== undefined ? { agentHandlers: fromEnv.agentHandlers } : {}),
      sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
    });
  });
  afterAll(async () => {
    await running?.close({ graceMs: 100 });
    rmSync(dir, { recursive: true, force: true });
    rmSync(sandboxDir, { recursive: true, force: true });
  });

  it("fails an instance whose pattern images do not exist as sandbox (setup), naming every path tried", async () => {
    const { job } = await running.engine.submitJob({ kind: "swe", payload: { instance: withoutSpec } });
    const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 240_000 });
    expect(jobs[0]?.status).toBe("failed");
    expect(jobs[0]?.reward).toBeNull();
    expect(jobs[0]?.failure?.kind).toBe("sandbox");
    const repo = withoutSpec.repo.replace("/", "__");
    expect(jobs[0]?.failure?.message).toContain(`${dir}/images/${repo}__${withoutSpec.version ?? ""}.sif`);
    expect(jobs[0]?.failure?.message).toContain(`${dir}/rootfs/${withoutSpec.instance_id}`);
  }, 300_000);

  it("applies the specs file: the spec's image instead of the pattern, and its setup commands", async () => {
    const { job } = await running.engine.submitJob({ kind: "swe", payload: { instance: withSpec } });
    const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 120_000 });
    // The sandbox started in the spec's image (the pattern has no file for it) and ran its setup.
    expect(jobs[0]?.status).toBe("failed");
    // A setup command failing on the clean repository makes the instance ungradable: `eval`.
    expect(jobs[0]?.failure).toMatchObject({ stage: "init", kind: "eval" });
    expect(jobs[0]?.failure?.message).toContain(
      "setup command `echo raas-spec-setup-ran; exit 7` exited with 7",
    );
    expect(jobs[0]?.failure?.message).not.toContain("no environment image");
  });
});
