// RAAS_SWE_IMAGE_PATTERN as an operator writes it: an OCI layout's tag in a pattern, and an instance
// whose image was never prepared, which fails as setup (`sandbox`), never as a grade (`eval`).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TSweInstance } from "@raas/handlers";
import { buildSweImageFixture, SWE_TEST_IMAGE_RECIPE } from "@raas/handlers/testing";
import { buildTestImages } from "@raas/sandbox/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { loadServerEnvFiles } from "../src/env-files";
import { type RunningServer, startServer } from "../src/server";

describe("swe image patterns: an OCI layout's tag, and an image that was not prepared", () => {
  // Sandboxes run as another uid: everything they mount sits under a searchable directory.
  const dir = mkdtempSync(join(tmpdir(), "raas-server-swe-pattern-"));
  chmodSync(dir, 0o755);
  let running: RunningServer;
  let instance: TSweInstance;
  let patterns: string;

  beforeAll(async () => {
    const images = await buildTestImages(SWE_TEST_IMAGE_RECIPE);
    instance = buildSweImageFixture(join(dir, "data"));
    // One layout per repository and version, its image tagged `trixie`; no SIF at all.
    mkdirSync(join(dir, "layouts"));
    symlinkSync(images.ociLayout, join(dir, "layouts", "raas-fixtures__chunky__1.2"));
    patterns = `${dir}/sif/{repo}__{version}.sif:${dir}/layouts/{repo}__{version}:trixie`;
    const env = parseServerEnv({
      RAAS_SWE_REPOS_DIR: join(dir, "data", "bundles"),
      RAAS_SWE_IMAGE_PATTERN: patterns,
      RAAS_IMAGE_CACHE_DIR: join(dir, "cache"),
    });
    const fromEnv = configFromEnv(env, await loadServerEnvFiles(env));
    mkdirSync(join(dir, "sandboxes"));
    running = await startServer({
      port: 0,
      logLevel: "silent",
      ...(fromEnv.agentHandlers !== undefined ? { agentHandlers: fromEnv.agentHandlers } : {}),
      sandbox: { ...fromEnv.sandbox, baseDir: join(dir, "sandboxes") },
    });
  }, 600_000);
  afterAll(async () => {
    await running?.close({ graceMs: 100 });
    rmSync(dir, { recursive: true, force: true });
  });

  async function runJob(payload: Record<string, unknown>) {
    const { job } = await running.engine.submitJob({ kind: "swe", payload });
    const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 300_000 });
    return jobs[0]!;
  }

  it("grades on the image a `layout:tag` pattern names: the fix that needs Python 3.13 is rewarded 1", async () => {
    const job = await runJob({ instance, modelPatch: instance.patch });
    expect(job.failure).toBeNull();
    expect(job).toMatchObject({ status: "completed", reward: 1 });
    expect(job.result).toMatchObject({ resolved: true, pythonVersion: expect.stringMatching(/^3\.13\./) });
  }, 300_000);

  it("fails an instance whose image was not prepared as `sandbox`, naming every place it looked", async () => {
    const unprepared = { ...instance, version: "9.9" };
    // Grading only, and a rollout (its INIT); each is started again from INIT, as a sandbox
    // failure is (another host may hold the image), then fails.
    const jobs = await Promise.all([
      runJob({ instance: unprepared, modelPatch: instance.patch }),
      runJob({ instance: unprepared }),
    ]);
    for (const job of jobs) {
      expect(job).toMatchObject({ status: "failed", reward: null });
      expect(job.failure?.kind).toBe("sandbox");
      expect(job.failure?.message).toContain(
        `no environment image for ${instance.instance_id}: none of ${dir}/sif/raas-fixtures__chunky__9.9.sif, ${dir}/layouts/raas-fixtures__chunky__9.9:trixie exists`,
      );
    }
  }, 300_000);
});
