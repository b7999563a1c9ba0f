import { describe, expect, it } from "vitest";
import { MemoryBackendRegistrationStore } from "../memory/memory-backend-registration-store";
import { MemoryEventBus } from "../memory/memory-event-bus";
import { MemoryWorkerStore } from "../memory/memory-worker-store";
import type {
  BackendRegistration,
  BackendView,
  InferenceBackendRegistry,
} from "../ports/inference-pool.port";
import { StickyRouter } from "../routing/sticky-router";
import { BackendDirectory } from "./backend-directory";

/** An inference pool's registry without the HTTP: the engine's router plus kind and URL. */
class RouterRegistry implements InferenceBackendRegistry {
  readonly router = new StickyRouter();
  readonly #meta = new Map<string, Pick<BackendView, "kind" | "baseUrl">>();

  registerBackend(input: BackendRegistration) {
    this.#meta.set(input.id, { kind: input.kind, baseUrl: input.baseUrl });
    const { backend, isCreated } = this.router.registerBackend(
      {
        id: input.id,
        modelName: input.modelName,
        weightVersion: input.weightVersion ?? null,
        maxConcurrency: input.maxConcurrency ?? 64,
      },
      0,
    );
    return { backend: this.#view(backend), isCreated };
  }
  listBackends() {
    return this.router.listBackends(0).map((backend) => this.#view(backend));
  }
  drainBackend(id: string) {
    return this.#view(this.router.drainBackend(id, 0));
  }
  resumeBackend(id: string) {
    return this.#view(this.router.resumeBackend(id, 0));
  }
  removeBackend(id: string) {
    return this.#view(this.router.removeBackend(id, 0));
  }
  setWeightVersion(id: string, weightVersion: string | null) {
    return this.#view(this.router.setWeightVersion(id, weightVersion, 0));
  }
  #view(snapshot: Omit<BackendView, "kind" | "baseUrl">): BackendView {
    return { ...snapshot, ...(this.#meta.get(snapshot.id) ?? { kind: "vllm", baseUrl: "" }) };
  }
}

const gpu = (id: string, extra: Partial<BackendRegistration> = {}): BackendRegistration => ({
  id,
  kind: "vllm",
  baseUrl: `http://${id}:8000`,
  modelName: "Qwen/Qwen3-8B",
  ...extra,
});

function deployment() {
  const store = new MemoryBackendRegistrationStore();
  const workers = new MemoryWorkerStore();
  const bus = new MemoryEventBus();
  const serverPool = new RouterRegistry();
  const workerPool = new RouterRegistry();
  const server = new BackendDirectory({ registry: serverPool, store, workers, bus });
  const worker = new BackendDirectory({ registry: workerPool, store, bus });
  return { store, workers, bus, serverPool, workerPool, server, worker };
}

/** Each backend's lifecycle, by id (the router lists in id order). */
const lifecycles = (pool: RouterRegistry) => pool.listBackends().map((b) => [b.id, b.lifecycle]);

describe("BackendDirectory", () => {
  it("applies the API's changes here, keeps them, and another process's sync applies them there", async () => {
    const { store, serverPool, workerPool, server, worker } = deployment();
    // Both processes have the configured backend from their own environment.
    serverPool.registerBackend(gpu("env"));
    workerPool.registerBackend(gpu("env"));

    await server.registerBackend(gpu("api", { weightVersion: "step-1", maxConcurrency: 8 }));
    await server.drainBackend("env");
    expect(await worker.sync()).toBe(2);
    expect(workerPool.listBackends().find((b) => b.id === "api")).toMatchObject({
      baseUrl: "http://api:8000",
      weightVersion: "step-1",
      maxConcurrency: 8,
    });
    expect(lifecycles(workerPool)).toEqual([
      ["api", "active"],
      ["env", "drained"],
    ]);
    expect(await worker.sync()).toBe(0);

    // A weight version set since (e.g. by a policy sync) survives a drain-only change.
    workerPool.setWeightVersion("api", "step-9");
    await server.drainBackend("api");
    await server.resumeBackend("env");
    await worker.sync();
    expect(workerPool.listBackends().find((b) => b.id === "api")?.weightVersion).toBe("step-9");
    expect(lifecycles(workerPool)).toEqual([
      ["api", "drained"],
      ["env", "active"],
    ]);

    // Removing a configured backend reaches the worker too (a tombstone).
    await server.removeBackend("env");
    await worker.sync();
    expect(lifecycles(workerPool)).toEqual([["api", "drained"]]);
    expect((await store.list()).map((b) => [b.id, b.state])).toEqual([
      ["api", "draining"],
      ["env", "removed"],
    ]);
  });

  it("a restarted server gets back the backends registered through the API, after its configured ones", async () => {
    const { store, server } = deployment();
    await server.registerBackend(gpu("api"));
    await server.setWeightVersion("api", "step-4");
    await server.drainBackend("api");

    const restartedPool = new RouterRegistry();
    restartedPool.registerBackend(gpu("env"));
    const restarted = new BackendDirectory({ registry: restartedPool, store });
    await restarted.sync();
    expect(restartedPool.listBackends().map((b) => [b.id, b.lifecycle, b.weightVersion])).toEqual([
      ["api", "drained", "step-4"],
      ["env", "active", null],
    ]);
    // Unknown ids are still the registry's 404s, and nothing is stored for them.
    await expect(restarted.drainBackend("nope")).rejects.toMatchObject({ failure: { code: "NOT_FOUND" } });
    expect((await store.list()).map((b) => b.id)).toEqual(["api"]);
  });

  it("lists this process's backends merged with the live workers' reports", async () => {
    const { workers, serverPool, workerPool, server } = deployment();
    serverPool.registerBackend(gpu("env"));
    workerPool.registerBackend(gpu("env"));
    workerPool.registerBackend(gpu("worker-only"));
    workerPool.router.release(
      workerPool.router.acquire("job-1", 0)!.backendId,
      { type: "success", promptTokens: 100, cachedPromptTokens: 40, responseTokens: 10, latencyMs: 5 },
      0,
    );
    workerPool.router.acquire("job-2", 0);
    await workers.register({
      id: "w1",
      hostname: "node",
      pid: 1,
      labels: [],
      pools: {},
      sandboxes: 0,
      backends: workerPool.listBackends(),
      startedAtMs: Date.now(),
      heartbeatAtMs: Date.now(),
    });
    const listed = await server.listBackends();
    expect(listed.map((b) => b.id)).toEqual(["env", "worker-only"]);
    const total = listed.reduce((sum, b) => sum + b.stats.requests, 0);
    expect(total).toBe(1);
    expect(listed.reduce((sum, b) => sum + b.inFlight, 0)).toBe(1);
    expect(listed.flatMap((b) => b.workers.map((w) => w.workerId))).toEqual(["w1", "w1"]);

    // A removed backend is no longer listed even while a worker still reports it.
    serverPool.registerBackend(gpu("worker-only"));
    await server.removeBackend("worker-only");
    expect((await server.listBackends()).map((b) => b.id)).toEqual(["env"]);
  });

  it("hears a change on the bus before its next interval", async () => {
    const { workerPool, server, worker } = deployment();
    const stop = await worker.startSync(3_600_000);
    try {
      await server.registerBackend(gpu("api"));
      for (let i = 0; i < 100 && workerPool.listBackends().length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(workerPool.listBackends().map((b) => b.id)).toEqual(["api"]);
    } finally {
      await stop();
    }
  });
});
