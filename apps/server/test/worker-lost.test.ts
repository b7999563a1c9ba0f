// A worker process whose heartbeats stop reaching the store in time is marked lost by the
// server's monitor; at its next beat it learns so and stops (exit 1), instead of going on taking
// work under an id the monitor never recovers again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type SpawnedWorker, spawnWorker } from "../../worker/test/support/spawn-worker";
import { type RunningServer, startServer } from "../src/server";
import { freshDistributedServices } from "./support/distributed-services";

describe("a worker process marked lost", () => {
  const services = freshDistributedServices();
  const dataDir = mkdtempSync(join(tmpdir(), "raas-worker-lost-"));
  let server: RunningServer | null = null;
  let worker: SpawnedWorker | null = null;

  afterAll(async () => {
    await worker?.kill();
    await server?.close({ graceMs: 100 });
    await services.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("stops and exits 1 once its own record says lost", async () => {
    server = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      store: { kind: "db", dataDir, databaseUrl: services.databaseUrl },
      queue: { kind: "redis", url: services.redisUrl, prefix: services.prefix },
      pools: { init: { concurrency: 0 }, run: { concurrency: 0 }, eval: { concurrency: 0 } },
      // Silent for 1 s is lost here, and this worker beats only every 4 s.
      workers: { monitorIntervalMs: 200, missedAfterMs: 1_000 },
    });
    worker = await spawnWorker({
      DATABASE_URL: services.databaseUrl,
      RAAS_QUEUE: services.redisUrl,
      RAAS_QUEUE_PREFIX: services.prefix,
      RAAS_WORKER_POOLS: "run=1",
      RAAS_WORKER_HEARTBEAT_MS: "4000",
      RAAS_SANDBOX_RUNTIME: "local",
    });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain("this worker was marked lost (silent too long): stopping");
    // Lost first (its jobs were handed on), then it stopped for good: never active again.
    expect((await server.workers.store.get(worker.id))?.status).toBe("stopped");
  }, 120_000);
});
