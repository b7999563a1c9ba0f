// Teacher logprobs for on-policy distillation, end to end on a database store: a training step
// names a teacher policy whose backend is a second simulator (vLLM HTTP, `prompt_logprobs`). Each
// member's finished trajectory is scored once on it; the step's groups hand out trajectories whose
// `teacherLogprobs` cover their tokens and equal what the teacher answers for those ids. A step
// whose teacher is down still delivers its groups, rewards intact, each trajectory saying the
// teacher is missing and why. A bad teacher is a 400 at step creation and at job submission.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { StoreConfig } from "@raas/compose";
import { createJobStore } from "@raas/db";
import type { TGroupResult, TRun, TStep, TTrajectoryExport } from "@raas/shared";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";

const DATA = fileURLToPath(new URL("../../../packages/handlers/data/", import.meta.url));
const TRAINER = "teacher-trainer";
const ADMIN = "teacher-admin";
const DATABASE_URL = process.env.RAAS_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const schema = `raas_test_teacher_${process.pid}_${Date.now().toString(36)}`;
const stores: Array<[string, (dir: string) => StoreConfig]> = [
  ["PGlite", (dir) => ({ kind: "db", dataDir: dir })],
  ["PostgreSQL", (dir) => ({ kind: "db", dataDir: dir, databaseUrl: `${DATABASE_URL}?schema=${schema}` })],
];
const mathTasks = readFileSync(join(DATA, "math.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .slice(0, 2)
  .map((line, i) => ({
    taskId: `t${i}`,
    kind: "math",
    payload: JSON.parse(line) as Record<string, unknown>,
  }));

/** A port nothing listens on: a teacher there is down (connection refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What the teacher answers for `ids`, asked directly over its vLLM API (null for the first). */
async function teacherAnswer(teacher: RunningSimulator, ids: readonly number[]): Promise<(number | null)[]> {
  const response = await fetch(`${teacher.url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: teacher.modelName, prompt: ids, max_tokens: 1, prompt_logprobs: 1 }),
  });
  const body = (await response.json()) as {
    choices: [{ prompt_logprobs: (Record<string, { logprob: number }> | null)[] }];
  };
  return body.choices[0].prompt_logprobs.map((entry, i) => entry?.[String(ids[i])]?.logprob ?? null);
}

describe("teacher logprobs for on-policy distillation", () => {
  let policy: RunningSimulator;
  let teacher: RunningSimulator;
  let downPort: number;

  beforeAll(async () => {
    const config = JSON.parse(readFileSync(join(DATA, "simulator/math-code-stem.policy.json"), "utf8"));
    policy = await startSimulator({ policy: config as TPolicyConfigInput, seed: 7 });
    teacher = await startSimulator({ policy: config as TPolicyConfigInput, seed: 11 });
    downPort = await closedPort();
  });

  afterAll(async () => {
    await policy?.close();
    await teacher?.close();
    const store = await createJobStore({ databaseUrl: DATABASE_URL, schema, migrate: false });
    await store.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await store.close();
  });

  describe.each(stores)("on the %s store", (_name, storeConfig) => {
    let server: RunningServer;
    let dir: string;
    let sandboxDir: string;

    const call = async <T>(
      path: string,
      body?: unknown,
      token = TRAINER,
    ): Promise<{ status: number; body: T }> => {
      const response = await fetch(`${server.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as T };
    };
    const ok = async <T>(path: string, body?: unknown, token = TRAINER): Promise<T> => {
      const { status, body: parsed } = await call<T>(path, body, token);
      expect(status, JSON.stringify(parsed)).toBeLessThan(300);
      return parsed;
    };
    /** Creates a step naming `teacherSpec` and reads its groups until it is done. */
    const runStep = async (teacherSpec: Record<string, string>) => {
      const { run } = await ok<{ run: TRun }>("/api/v1/runs", {
        name: `distill-${JSON.stringify(teacherSpec)}`,
      });
      const { step } = await ok<{ step: TStep }>("/api/v1/steps", {
        runId: run.id,
        tasks: { type: "inline", tasks: mathTasks },
        groupSize: 2,
        groups: 2,
        dynamicSampling: { policy: "none" },
        teacher: teacherSpec,
      });
      const groups: TGroupResult[] = [];
      for (let afterSeq = 0; ; ) {
        const next = await ok<{ step: TStep; groups: TGroupResult[]; done: boolean }>(
          `/api/v1/steps/${step.id}/next?afterSeq=${afterSeq}&timeoutMs=20000`,
        );
        groups.push(...next.groups);
        afterSeq = next.groups.at(-1)?.seq ?? afterSeq;
        if (next.done)
          return { step: next.step, trajectories: groups.flatMap((group) => group.trajectories) };
      }
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "raas-teacher-"));
      sandboxDir = mkdtempSync(join(tmpdir(), "raas-teacher-sandboxes-"));
      const fromEnv = configFromEnv(
        parseServerEnv({ RAAS_BACKENDS: `vllm=${policy.url}#${policy.modelName}` }),
      );
      server = await startServer({
        port: 0,
        logLevel: "silent",
        auth: { trainerToken: TRAINER, adminToken: ADMIN },
        store: storeConfig(join(dir, "data")),
        ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
        sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
      });
      // The teachers serve policies of their own: no job of the trained policy is routed to them.
      const register = (id: string, baseUrl: string, policyId: string) =>
        ok("/api/v1/backends", { id, kind: "vllm", baseUrl, modelName: teacher.modelName, policyId }, ADMIN);
      await register("teacher-0", teacher.url, "teacher");
      await register("teacher-down", `http://127.0.0.1:${downPort}`, "teacher-down");
    }, 120_000);

    afterAll(async () => {
      await server?.close({ graceMs: 100 });
      rmSync(dir, { recursive: true, force: true });
      rmSync(sandboxDir, { recursive: true, force: true });
    });

    it("hands out trajectories carrying the teacher's logprobs of their own tokens", async () => {
      const { step, trajectories } = await runStep({ policyId: "teacher" });
      expect(step.status).toBe("completed");
      expect(trajectories).toHaveLength(4);
      for (const row of trajectories as TTrajectoryExport[]) {
        expect(row.tokenExact).toBe(true);
        expect(row.turns.length).toBeGreaterThan(1);
        expect(row.teacher).toEqual({
          policyId: "teacher",
          backendId: "teacher-0",
          isScored: true,
          missingReason: null,
        });
        expect(row.teacherLogprobs).toHaveLength(row.tokens.length);
        const answer = await teacherAnswer(teacher, row.tokens);
        row.lossMask.forEach((mask, i) => {
          if (mask === 0) expect(row.teacherLogprobs?.[i]).toBeNull();
          // Stored as Float32, like the policy's own logprobs.
          else expect(row.teacherLogprobs?.[i]).toBe(Math.fround(answer[i] as number));
        });
        // The teacher scored other values than the policy sampled with: it is a second opinion.
        const sampled = row.lossMask.flatMap((mask, i) => (mask === 1 ? [i] : []));
        expect(sampled.some((i) => row.teacherLogprobs?.[i] !== row.logprobs[i])).toBe(true);
      }
    }, 300_000);

    it("delivers a down teacher's step whole, each trajectory saying the teacher is missing and why", async () => {
      const { step, trajectories } = await runStep({ backendId: "teacher-down" });
      expect(step.status).toBe("completed");
      expect(trajectories).toHaveLength(4);
      for (const row of trajectories as TTrajectoryExport[]) {
        expect(row.status).toBe("completed");
        expect(row.trainable).toBe(true);
        expect(row.reward).not.toBeNull();
        expect(row).not.toHaveProperty("teacherLogprobs");
        expect(row.teacher).toMatchObject({ policyId: null, backendId: "teacher-down", isScored: false });
        expect(row.teacher?.missingReason).toMatch(/^the teacher failed: .*teacher-down/);
      }
    }, 300_000);

    it("scores a single job naming a teacher backend in its agent overrides", async () => {
      const { job } = await ok<{ job: { id: string } }>("/api/v1/jobs", {
        kind: "math",
        payload: { ...mathTasks[1]?.payload, agent: { teacher: { backendId: "teacher-0" } } },
      });
      const waited = await ok<{ done: boolean }>("/api/v1/jobs/wait", { ids: [job.id], timeoutMs: 60_000 });
      expect(waited.done).toBe(true);
      const row = await ok<TTrajectoryExport>(`/api/v1/jobs/${encodeURIComponent(job.id)}/export`);
      expect(row.status).toBe("completed");
      expect(row.teacher).toEqual({
        policyId: null,
        backendId: "teacher-0",
        isScored: true,
        missingReason: null,
      });
      const answer = await teacherAnswer(teacher, row.tokens);
      expect(row.teacherLogprobs).toEqual(
        row.lossMask.map((mask, i) => (mask === 1 ? Math.fround(answer[i] as number) : null)),
      );
    }, 120_000);

    it("refuses a teacher naming neither or both of a policy and a backend", async () => {
      const { run } = await ok<{ run: TRun }>("/api/v1/runs", { name: "bad-teacher" });
      for (const teacherSpec of [{}, { policyId: "teacher", backendId: "teacher-0" }]) {
        const refused = await call<{ error: { code: string; message: string } }>("/api/v1/steps", {
          runId: run.id,
          tasks: { type: "inline", tasks: mathTasks },
          groupSize: 2,
          groups: 1,
          teacher: teacherSpec,
        });
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe("VALIDATION_FAILED");
        expect(refused.body.error.message).toMatch(/teacher.*exactly one of policyId or backendId/);
      }
      const job = await call<{ error: { code: string; message: string } }>("/api/v1/jobs", {
        kind: "math",
        payload: { ...mathTasks[0]?.payload, agent: { teacher: { model: "big" } } },
      });
      expect(job.status).toBe(400);
      expect(job.body.error.message).toMatch(/agent\.teacher/);
    });
  });
});
