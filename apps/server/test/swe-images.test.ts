// `swe` jobs on per-repository images, configured as an operator would: RAAS_SWE_IMAGE_PATTERN
// names a SIF per repository and version, RAAS_IMAGE_CACHE_DIR holds what bubblewrap unpacks.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TSweInstance } from "@raas/handlers";
import { buildSweImageFixture, SWE_TEST_IMAGE_RECIPE } from "@raas/handlers/testing";
import { buildTestImages, type TestImages } from "@raas/sandbox/testing";
import { type RunningSimulator, startSimulator, swePatchScript } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { loadServerEnvFiles } from "../src/env-files";
import { type RunningServer, startServer } from "../src/server";

const TOKEN = "swe-images-admin";

describe("swe jobs on images from RAAS_SWE_IMAGE_PATTERN and the job's spec (bubblewrap)", () => {
  // Sandboxes run as another uid: everything they mount sits under a searchable directory.
  const dir = mkdtempSync(join(tmpdir(), "raas-server-swe-images-"));
  chmodSync(dir, 0o755);
  let running: RunningServer;
  let simulator: RunningSimulator;
  let images: TestImages;
  let instance: TSweInstance;

  beforeAll(async () => {
    images = await buildTestImages(SWE_TEST_IMAGE_RECIPE);
    instance = buildSweImageFixture(join(dir, "data"));
    // The agent first asks which Python its sandbox has, then applies the gold patch and submits.
    const solve = swePatchScript(instance);
    const version = { toolCalls: [{ name: "bash", arguments: { command: "python3 --version" } }] };
    simulator = await startSimulator({
      policy: {
        kind: "scripted",
        tasks: { [instance.instance_id]: { ...solve, steps: [version, ...solve.steps] } },
      },
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
    });
    mkdirSync(join(dir, "images"));
    symlinkSync(images.sif, join(dir, "images", "raas-fixtures__chunky__1.2.sif"));
    const env = parseServerEnv({
      RAAS_SWE_REPOS_DIR: join(dir, "data", "bundles"),
      RAAS_SWE_IMAGE_PATTERN: `${dir}/images/{repo}__{version}.sif`,
      RAAS_IMAGE_CACHE_DIR: join(dir, "cache"),
      RAAS_IMAGE_CACHE_MAX_BYTES: String(8 * 1024 ** 3),
      RAAS_BACKENDS: simulator.url,
    });
    const fromEnv = configFromEnv(env, await loadServerEnvFiles(env));
    mkdirSync(join(dir, "sandboxes"));
    running = await startServer({
      port: 0,
      logLevel: "silent",
      auth: { adminToken: TOKEN },
      ...(fromEnv.inference !== undefined ? { inference: fromEnv.inference } : {}),
      ...(fromEnv.agentHandlers !== undefined ? { agentHandlers: fromEnv.agentHandlers } : {}),
      sandbox: { ...fromEnv.sandbox, baseDir: join(dir, "sandboxes") },
    });
  }, 600_000);
  afterAll(async () => {
    await running?.close({ graceMs: 100 });
    await simulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Grades `instance`'s gold patch as a job (no agent), with the job's own spec. */
  async function gradeGold(spec?: Record<string, unknown>) {
    const { job } = await running.engine.submitJob({
      kind: "swe",
      payload: { instance, modelPatch: instance.patch, ...(spec && { spec }) },
    });
    const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 300_000 });
    return jobs[0]!;
  }

  it("rewards a fix that needs Python 3.13 with 1 on the pattern's SIF and on a spec's OCI archive, 0 on the host", async () => {
    const [onSif, onOci, onHost] = await Promise.all([
      gradeGold(),
      gradeGold({ image: images.ociArchive }),
      // The host's root filesystem as the image: its Python 3.11 has no itertools.batched.
      gradeGold({ image: "/" }),
    ]);
    for (const [name, job] of [
      ["sif", onSif],
      ["oci", onOci],
    ] as const) {
      expect({ name, failure: job.failure }).toEqual({ name, failure: null });
      expect(job).toMatchObject({ status: "completed", reward: 1 });
      expect(job.result).toMatchObject({ resolved: true, pythonVersion: expect.stringMatching(/^3\.13\./) });
    }
    expect(onHost.failure).toBeNull();
    expect(onHost).toMatchObject({ status: "completed", reward: 0 });
    expect(onHost.result).toMatchObject({
      resolved: false,
      pythonVersion: expect.stringMatching(/^3\.11\./),
    });
    // Both packed images were unpacked into the configured cache.
    const entries = readdirSync(join(dir, "cache", "entries"));
    expect(entries.filter((name) => name.startsWith("sif-"))).toHaveLength(1);
    expect(entries.filter((name) => name.startsWith("oci-"))).toHaveLength(1);
  }, 600_000);

  it("runs the agent's sandbox on the image too: its python3 is 3.13 and its fix is rewarded 1", async () => {
    const { job } = await running.engine.submitJob({
      kind: "swe",
      payload: { instance, agent: { maxTurns: 8 } },
    });
    const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 300_000 });
    expect(jobs[0]?.failure).toBeNull();
    expect(jobs[0]).toMatchObject({ status: "completed", reward: 1 });
    const { toolCalls } = await running.engine.getTrajectory(job.id);
    expect(toolCalls[0]).toMatchObject({ name: "bash", exitCode: 0 });
    expect(toolCalls[0]?.output).toMatch(/^Python 3\.13\./);
    // git (apply, diff) ran in the image as well.
    expect(toolCalls.filter((call) => call.name === "bash").map((call) => call.exitCode)).toEqual([
      0, 0, 0, 0,
    ]);
  }, 300_000);

  it("refuses a relative spec image at submit with a 400, and fails a missing one as sandbox, naming it", async () => {
    const response = await fetch(`${running.url}/api/v1/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ kind: "swe", payload: { instance, spec: { image: "images/chunky.sif" } } }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("VALIDATION_FAILED");
    expect(body.error.message).toMatch(/image: expected an absolute path/);

    const missing = join(dir, "images", "missing.sif");
    const job = await gradeGold({ image: missing });
    expect(job.status).toBe("failed");
    expect(job.reward).toBeNull();
    expect(job.failure?.kind).toBe("sandbox");
    expect(job.failure?.message).toContain(`image ${missing} does not exist`);
  }, 300_000);
});
