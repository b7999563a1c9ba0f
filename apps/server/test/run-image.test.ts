// A run's default image for its jobs, through the running server on PostgreSQL: the run stores it,
// its jobs' sandboxes run on it (the image's Python 3.13, not the host's 3.11), and a job whose
// payload names its own image runs on that one instead.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTestImages, type TestImages } from "@raas/sandbox/testing";
import type { TJob, TRun, TStep } from "@raas/shared";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, TEST_DATABASE_URL } from "../../../packages/db/test/support/postgres-test-database";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";
import { tokenCalls } from "./support/http-calls";

const schema = `raas_test_run_image_${process.pid}_${Date.now().toString(36)}`;
const TOKENS = { trainer: "run-image-trainer" } as const;
const finished = (job: TJob) => job.status === "completed" || job.status === "failed";

describe("a run's default image (PostgreSQL, bubblewrap)", () => {
  // Sandboxes run as another uid: everything they mount sits under a searchable directory.
  const dir = mkdtempSync(join(tmpdir(), "raas-run-image-"));
  chmodSync(dir, 0o755);
  let server: RunningServer;
  let simulator: RunningSimulator;
  let images: TestImages;
  const { call, ok } = tokenCalls(() => server.url, TOKENS);

  beforeAll(async () => {
    images = await buildTestImages();
    // Any answer will do: the math handler reports the sandbox's Python version either way.
    simulator = await startSimulator({
      policy: { kind: "scripted", tasks: {} },
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
    });
    const fromEnv = configFromEnv(
      parseServerEnv({
        RAAS_TRAINER_TOKENS: TOKENS.trainer,
        RAAS_BACKENDS: simulator.url,
        RAAS_IMAGE_CACHE_DIR: join(dir, "cache"),
      }),
    );
    server = await startServer({
      port: 0,
      logLevel: "silent",
      auth: fromEnv.auth ?? {},
      ...(fromEnv.inference !== undefined ? { inference: fromEnv.inference } : {}),
      sandbox: { ...fromEnv.sandbox, baseDir: join(dir, "sandboxes") },
      store: { kind: "db", dataDir: join(dir, "data"), databaseUrl: `${TEST_DATABASE_URL}?schema=${schema}` },
    });
  }, 600_000);
  afterAll(async () => {
    await server?.close({ graceMs: 100 });
    await simulator?.close();
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  it("runs the run's jobs on its image, and a job naming its own image on that one", async () => {
    const { run } = await ok<{ run: TRun }>("trainer", "/api/v1/runs", {
      name: "on-trixie",
      image: images.ociArchive,
    });
    expect(run.image).toBe(images.ociArchive);
    expect((await ok<TRun>("trainer", `/api/v1/runs/${run.id}`)).image).toBe(images.ociArchive);

    const task = (taskId: string, extra: Record<string, unknown> = {}) => ({
      taskId,
      kind: "math",
      payload: { taskId, problem: "What is 2 + 2?", answer: "4", agent: { maxTurns: 1 }, ...extra },
    });
    const { step } = await ok<{ step: TStep }>("trainer", "/api/v1/steps", {
      runId: run.id,
      // The host's own root filesystem as the job's image: its Python is the host's 3.11.
      tasks: { type: "inline", tasks: [task("on-run-image"), task("own-image", { image: "/" })] },
      groupSize: 1,
      groups: 2,
      dynamicSampling: { policy: "none" },
    });
    let jobs: TJob[] = [];
    await expect
      .poll(
        async () => {
          jobs = (await server.engine.listJobs({ batchId: step.id, limit: 10 })).items;
          return jobs.length === 2 && jobs.every(finished);
        },
        { timeout: 300_000, interval: 250 },
      )
      .toBe(true);
    const byTask = Object.fromEntries(jobs.map((job) => [job.metadata?.taskId, job]));
    for (const job of jobs)
      expect({ id: job.id, failure: job.failure }).toEqual({ id: job.id, failure: null });
    expect(byTask["on-run-image"]?.metadata).toMatchObject({ defaultImage: images.ociArchive });
    expect(byTask["on-run-image"]?.result).toMatchObject({
      pythonVersion: expect.stringMatching(/^3\.13\./),
    });
    expect(byTask["own-image"]?.result).toMatchObject({ pythonVersion: expect.stringMatching(/^3\.11\./) });
  }, 600_000);

  it("refuses a run whose image is no absolute path with a 400 naming the field", async () => {
    const answer = await call<{ error: { code: string; message: string } }>("trainer", "/api/v1/runs", {
      name: "relative-image",
      image: "images/trixie.sif",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("VALIDATION_FAILED");
    expect(answer.body.error.message).toMatch(/image: expected an absolute path/);
  });
});
