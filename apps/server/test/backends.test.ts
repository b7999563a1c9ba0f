// backends.* over real HTTP against the composed server: the routed inference pool, the built-in
// agent handlers in real bubblewrap sandboxes, and two in-process simulators (the labelled test
// double for a GPU model; imported from its workspace for tests only, as the benches do).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const TOKENS = { admin: "backends-admin", trainer: "backends-trainer" };
const TASK = "math-backends-1";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: {
      steps: [
        { thinking: "Compute it.", toolCalls: [{ name: "python", arguments: { code: "print(17*23)" } }] },
        { thinking: "Done.", content: "The answer is $\\boxed{391}$." },
      ],
    },
  },
};

async function call(url: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  return { status: response.status, body: (await response.json()) as any };
}

describe("backends.* on the composed server with simulators", () => {
  let running: RunningServer;
  let simA: RunningSimulator;
  let simB: RunningSimulator;
  let sandboxDir: string;
  let idA: string;
  const api = (path: string) => `${running.url}/api/v1${path}`;

  beforeAll(async () => {
    const latency = { prefillMsPerToken: 0, decodeMsPerToken: 0 };
    [simA, simB] = await Promise.all([
      startSimulator({ policy, latency }),
      startSimulator({ policy, latency }),
    ]);
    sandboxDir = mkdtempSync(join(tmpdir(), "raas-server-backends-"));
    running = await startServer({
      port: 0,
      logLevel: "silent",
      auth: { adminToken: TOKENS.admin, trainerToken: TOKENS.trainer },
      inference: {
        backends: [{ kind: "vllm", baseUrl: simA.url, modelName: null }],
        healthCheckIntervalMs: 100,
      },
      sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
    });
    idA = new URL(simA.url).host;
  });
  afterAll(async () => {
    await running?.close({ graceMs: 100 });
    await Promise.all([simA?.close(), simB?.close()]);
    rmSync(sandboxDir, { recursive: true, force: true });
  });

  it("registers the configured backend at start and lists it with health and stats", async () => {
    expect(running.engine.handlerKinds()).toEqual(expect.arrayContaining(["math", "code", "stem", "sleep"]));
    await expect
      .poll(async () => (await call(api("/backends"))).body.backends[0]?.lastHealthCheck?.isHealthy, {
        timeout: 10_000,
      })
      .toBe(true);
    const { status, body } = await call(api("/backends"));
    expect(status).toBe(200);
    expect(body.backends).toHaveLength(1);
    expect(body.backends[0]).toMatchObject({
      id: idA,
      kind: "vllm",
      baseUrl: simA.url,
      modelName: "Qwen/Qwen3-8B",
      weightVersion: null,
      lifecycle: "active",
      circuit: "closed",
      inFlight: 0,
      stats: { requests: 0, promptTokens: 0, prefixCacheHitRate: null },
    });
  });

  it("registers at run time (201), updates a known id (200), and rejects bad input with a sentence", async () => {
    const created = await call(api("/backends"), {
      body: { id: "sim-b", baseUrl: `${simB.url}/`, weightVersion: "step-0", maxConcurrency: 8 },
      token: TOKENS.admin,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      created: true,
      backend: { id: "sim-b", baseUrl: simB.url, weightVersion: "step-0", maxConcurrency: 8 },
    });
    const updated = await call(api("/backends"), {
      body: { id: "sim-b", baseUrl: simB.url, weightVersion: "step-0", maxConcurrency: 16 },
      token: TOKENS.admin,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.created).toBe(false);
    expect(updated.body.backend.maxConcurrency).toBe(16);

    const badUrl = await call(api("/backends"), { body: { baseUrl: "localhost:8000" }, token: TOKENS.admin });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.message).toBe(
      "baseUrl: expected an http:// or https:// URL such as http://gpu-3:8000",
    );
    const asTrainer = await call(api("/backends"), { body: { baseUrl: simB.url }, token: TOKENS.trainer });
    expect(asTrainer.status).toBe(403);
    const anonymous = await call(api(`/backends/${idA}/drain`), { method: "POST" });
    expect(anonymous.status).toBe(401);
    expect((await call(api("/backends"))).body.backends.map((b: { id: string }) => b.id)).toEqual([
      idA,
      "sim-b",
    ]);
  });

  it("a drained backend gets no new jobs; turns carry the weight version that was set", async () => {
    const drained = await call(api(`/backends/${idA}/drain`), { method: "POST", token: TOKENS.admin });
    expect(drained.status).toBe(200);
    expect(drained.body.backend.lifecycle).toBe("drained");
    const versioned = await call(api("/backends/sim-b/weight-version"), {
      body: { weightVersion: "step-7" },
      token: TOKENS.admin,
    });
    expect(versioned.status).toBe(200);
    expect(versioned.body.backend.weightVersion).toBe("step-7");

    const submitted = await call(api("/jobs"), {
      body: { kind: "math", payload: { taskId: TASK, problem: "What is $17 \\times 23$?", answer: "391" } },
      token: TOKENS.trainer,
    });
    expect(submitted.status).toBe(201);
    const id = submitted.body.job.id as string;
    const waited = await call(api("/jobs/wait"), {
      body: { ids: [id], timeoutMs: 60_000 },
      token: TOKENS.trainer,
    });
    expect(waited.body.done).toBe(true);
    const job = (await call(api(`/jobs/${id}`))).body;
    expect(job.failure).toBeNull();
    expect(job).toMatchObject({ status: "completed", reward: 1, trainable: true });

    const { turns, toolCalls } = (await call(api(`/jobs/${id}/trajectory`))).body;
    expect(turns).toHaveLength(2);
    for (const turn of turns) expect(turn).toMatchObject({ backendId: "sim-b", weightVersion: "step-7" });
    expect(toolCalls[0]).toMatchObject({ name: "python" });
    expect(toolCalls[0].output).toContain("391");

    const backends = (await call(api("/backends"))).body.backends as Array<{
      id: string;
      stats: { requests: number; promptTokens: number; cachedPromptTokens: number };
      utilisation: { busyFraction: number; slotUtilisation: number; source: string } | null;
    }>;
    const [a, b] = [backends.find((x) => x.id === idA)!, backends.find((x) => x.id === "sim-b")!];
    expect(a.stats.requests).toBe(0);
    expect(b.stats.requests).toBe(2);
    expect(b.stats.promptTokens).toBeGreaterThan(0);
    // The second turn's prompt extends the first: the simulator's prefix cache serves part of it.
    expect(b.stats.cachedPromptTokens).toBeGreaterThan(0);
    // Its busy fraction over the window (turns here decode in no time, so it may read 0).
    expect(b.utilisation?.busyFraction).toBeGreaterThanOrEqual(0);
    expect(b.utilisation?.busyFraction).toBeLessThanOrEqual(1);
    expect(["reported", "in-flight"]).toContain(b.utilisation?.source);

    const metrics = await fetch(`${running.url}/metrics`).then((r) => r.text());
    expect(metrics).toContain('raas_backend_requests_total{backend="sim-b",model="Qwen/Qwen3-8B"} 2');
    expect(metrics).toContain(`raas_backend_requests_total{backend="${idA}",model="Qwen/Qwen3-8B"} 0`);
    expect(metrics).toContain(`raas_backend_draining{backend="${idA}",model="Qwen/Qwen3-8B"} 1`);
    expect(metrics).toMatch(
      /raas_backend_inference_busy_fraction\{backend="sim-b",model="Qwen\/Qwen3-8B"\} [\d.e-]+\n/,
    );
    expect(metrics).toMatch(
      /raas_backend_prefix_cache_hit_ratio\{backend="sim-b",model="Qwen\/Qwen3-8B"\} 0\.\d+/,
    );

    const resumed = await call(api(`/backends/${idA}/resume`), { method: "POST", token: TOKENS.admin });
    expect(resumed.body.backend.lifecycle).toBe("active");
  });

  it("removes a backend; acting on an unknown id is a 404 with a sentence", async () => {
    const removed = await call(api(`/backends/${idA}`), { method: "DELETE", token: TOKENS.admin });
    expect(removed.status).toBe(200);
    expect(removed.body.backend.id).toBe(idA);
    expect((await call(api("/backends"))).body.backends.map((b: { id: string }) => b.id)).toEqual(["sim-b"]);
    const again = await call(api(`/backends/${idA}`), { method: "DELETE", token: TOKENS.admin });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe(`No backend with id ${idA} is registered`);
    const version = await call(api("/backends/nope/weight-version"), {
      body: { weightVersion: null },
      token: TOKENS.admin,
    });
    expect(version.status).toBe(404);
  });

  it("with no backend left, a rollout fails as an infrastructure (inference) failure, never reward 0", async () => {
    expect((await call(api("/backends/sim-b"), { method: "DELETE", token: TOKENS.admin })).status).toBe(200);
    expect((await call(api("/backends"))).body.backends).toEqual([]);
    const submitted = await call(api("/jobs"), {
      body: { kind: "math", payload: { taskId: TASK, problem: "What is $17 \\times 23$?", answer: "391" } },
      token: TOKENS.trainer,
    });
    const id = submitted.body.job.id as string;
    await call(api("/jobs/wait"), { body: { ids: [id], timeoutMs: 60_000 }, token: TOKENS.trainer });
    const job = (await call(api(`/jobs/${id}`))).body;
    expect(job).toMatchObject({ status: "failed", trainable: false, reward: null });
    expect(job.failure).toMatchObject({ kind: "inference", stage: "run" });
    expect(job.failure.message).toContain("no inference backend");
  });
});
