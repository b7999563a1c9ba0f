import type { TJob } from "@raas/shared";
import type { RunningSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deployment, type ServerHandle, until } from "./support/deployment";
import { MATH_MODEL, mathBackendEnv, mathTasks, startMathSimulator } from "./support/math-tasks";
import { type SpawnedWorker, WorkerProcesses } from "./support/worker-processes";

// The Backends view in distributed mode: the API-only server routes nothing itself, a worker
// process runs every turn. backends.list shows the worker's counters (from its heartbeats); a
// backend registered through the API is used by the worker, a drain through the API reaches it,
// and a restarted server still has what was registered and drained through the API.

const MATH_TASKS = mathTasks(["math-001", "math-016", "math-002"]);

interface ListedBackend {
  id: string;
  lifecycle: string;
  stats: { requests: number; responseTokens: number; promptTokens: number; cachedPromptTokens: number };
  workers: Array<{ workerId: string; lifecycle: string; requests: number; responseTokens: number }>;
}
interface Turn {
  backendId: string | null;
  responseIds: number[];
}

describe("backends in distributed mode", () => {
  let deployment: Deployment;
  let workers: WorkerProcesses;
  let simA: RunningSimulator;
  let simB: RunningSimulator;
  let server: ServerHandle;
  let worker: SpawnedWorker;
  /** The configured backend's id: `host:port` of its URL. */
  let idA: string;
  const idB = "sim-b";

  const listed = async (target = server) =>
    (await target.rest<{ backends: ListedBackend[] }>("/api/v1/backends")).backends;
  const backend = async (id: string, target = server) => (await listed(target)).find((b) => b.id === id);

  /** Runs the math tasks on the worker; resolves to every turn they recorded. */
  const runMathJobs = async (): Promise<Turn[]> => {
    const jobs = MATH_TASKS.map((payload) => ({ kind: "math", payload }));
    const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", { jobs });
    const ids = results.map((result) => result.job.id);
    for (;;) {
      const waited = await server.rest<{ jobs: TJob[]; done: boolean }>("/api/v1/jobs/wait", {
        ids,
        timeoutMs: 30_000,
      });
      if (waited.done) {
        expect(waited.jobs.map((job) => job.status)).toEqual(ids.map(() => "completed"));
        break;
      }
    }
    const turns: Turn[] = [];
    for (const id of ids) {
      const trajectory = await server.rest<{ turns: Turn[] }>(
        `/api/v1/jobs/${encodeURIComponent(id)}/trajectory`,
      );
      turns.push(...trajectory.turns);
    }
    expect(turns.length).toBeGreaterThanOrEqual(ids.length);
    return turns;
  };

  beforeAll(async () => {
    [simA, simB] = await Promise.all([startMathSimulator({ seed: 7 }), startMathSimulator({ seed: 8 })]);
    idA = new URL(simA.url).host;
    deployment = await Deployment.start();
    workers = new WorkerProcesses(deployment);
    const backends = mathBackendEnv(simA);
    server = await deployment.startServer(backends);
    [worker] = (await workers.start(1, "init=2,run=2,eval=2", {
      ...backends,
      RAAS_WORKER_HEARTBEAT_MS: "300",
    })) as [SpawnedWorker];
  }, 240_000);

  afterAll(async () => {
    await workers?.stopAll();
    await deployment?.dispose();
    await Promise.all([simA?.close(), simB?.close()]);
  });

  it("shows the requests and tokens the worker sent, which the server itself never routed", async () => {
    const turns = await runMathJobs();
    expect(new Set(turns.map((turn) => turn.backendId))).toEqual(new Set([idA]));
    const responseTokens = turns.reduce((sum, turn) => sum + turn.responseIds.length, 0);
    // The worker's next heartbeats carry its counters.
    await until(async () => (await backend(idA))?.stats.requests === turns.length, "the worker's counters");
    const a = (await backend(idA)) as ListedBackend;
    expect(a.stats.responseTokens).toBe(responseTokens);
    expect(a.stats.promptTokens).toBeGreaterThan(0);
    expect(a.workers).toEqual([
      expect.objectContaining({
        workerId: worker.id,
        lifecycle: "active",
        requests: turns.length,
        responseTokens,
      }),
    ]);
    // The same figures as the worker's own /metrics.
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    const requestsLine = new RegExp(
      `^raas_backend_requests_total\\{[^}]*backend="${idA}"[^}]*\\} (\\d+)$`,
      "m",
    );
    expect(Number(requestsLine.exec(metrics)?.[1])).toBe(turns.length);
  }, 240_000);

  it("a backend registered through the API is used by the worker; a drain through the API reaches it", async () => {
    const before = (await backend(idA)) as ListedBackend;
    const registered = await server.rest<{ created: boolean }>("/api/v1/backends", {
      id: idB,
      kind: "vllm",
      baseUrl: simB.url,
      modelName: MATH_MODEL,
      weightVersion: "step-2",
    });
    expect(registered.created).toBe(true);
    await server.rest(`/api/v1/backends/${encodeURIComponent(idA)}/drain`, {});
    // The worker has both changes once it reports the new backend and the drained one.
    await until(async () => {
      const all = await listed();
      const a = all.find((b) => b.id === idA);
      const b = all.find((candidate) => candidate.id === idB);
      return (
        b?.workers.some((w) => w.workerId === worker.id) === true &&
        a?.workers.some((w) => w.workerId === worker.id && w.lifecycle !== "active") === true
      );
    }, "the worker to apply the registration and the drain");

    const turns = await runMathJobs();
    expect(new Set(turns.map((turn) => turn.backendId))).toEqual(new Set([idB]));
    await until(
      async () => (await backend(idB))?.stats.requests === turns.length,
      "the worker's counters for B",
    );
    const a = (await backend(idA)) as ListedBackend;
    expect(a.lifecycle).toBe("drained");
    expect(a.stats.requests).toBe(before.stats.requests);
    const b = (await backend(idB)) as ListedBackend;
    expect(b.workers).toEqual([expect.objectContaining({ workerId: worker.id, requests: turns.length })]);
  }, 240_000);

  it("a restarted server still has the backend registered and the drain made through the API", async () => {
    await server.proc.stop(10_000);
    server = await deployment.startServer(mathBackendEnv(simA));
    const all = await listed();
    expect(all.map((b) => [b.id, b.lifecycle])).toEqual([
      [idA, "drained"],
      [idB, "active"],
    ]);
  }, 240_000);
});
