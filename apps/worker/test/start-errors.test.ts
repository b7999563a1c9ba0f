import { afterAll, describe, expect, it } from "vitest";
import { PrivatePostgresServer } from "../../../packages/db/test/support/private-postgres-server";
import { type SpawnedWorker, spawnWorker } from "./support/spawn-worker";

describe("a worker that cannot start", () => {
  it("says in one line that the store is unreachable, without a stack or the URL, and exits 2", async () => {
    const failed = spawnWorker({
      DATABASE_URL: "postgresql://raas:hunter2@127.0.0.1:1/raas",
      RAAS_QUEUE: "redis://127.0.0.1:6379",
      RAAS_QUEUE_PREFIX: "raas-test-unreachable",
      RAAS_SANDBOX_RUNTIME: "local",
      RAAS_STORE_WAIT_MS: "1500",
    });
    await expect(failed).rejects.toThrow(/exited with 2 before it started/);
    const message = String(await failed.catch((error: Error) => error.message));
    expect(message).toContain(
      "the worker could not start: connect ECONNREFUSED 127.0.0.1:1 — is the PostgreSQL of DATABASE_URL running",
    );
    // It waited for the database (RAAS_STORE_WAIT_MS) before it gave up.
    expect(message).toContain("waiting for PostgreSQL at 127.0.0.1:1 (attempt 1)");
    expect(message).not.toContain("hunter2");
    expect(message).not.toMatch(/\n\s+at /);
  }, 90_000);
});

// A worker started while its PostgreSQL is still coming up (a host boot, an upgrade's restart)
// waits for it (RAAS_STORE_WAIT_MS, default 60 s) rather than exiting at once.
describe("a worker started before its PostgreSQL", () => {
  let postgres: PrivatePostgresServer | null = null;
  let worker: SpawnedWorker | null = null;
  afterAll(async () => {
    await worker?.kill();
    await postgres?.dispose();
  });

  it("waits for the database, logging it, and starts once the database is up", async () => {
    const server = await PrivatePostgresServer.start();
    postgres = server;
    await server.stop("immediate");
    let starting: Promise<void> | null = null;
    worker = await spawnWorker(
      {
        DATABASE_URL: server.urlWithSchema("wait_at_start"),
        RAAS_QUEUE: "redis://127.0.0.1:6379",
        RAAS_QUEUE_PREFIX: `raas-test-wait-${process.pid}`,
        RAAS_SANDBOX_RUNTIME: "local",
      },
      {
        // The database starts only once the worker has met it stopped at least twice.
        onOutput: (output) => {
          if (!starting && output.includes("(attempt 2)")) starting = server.start();
        },
      },
    );
    expect(starting).not.toBeNull();
    expect(worker.output()).toContain(`waiting for PostgreSQL at 127.0.0.1:${server.port} (attempt 1)`);
    expect(worker.output()).not.toContain("could not start");
    // Waited out, the outage was a warning: no error line (pino level 50 or 60).
    expect(worker.output()).not.toMatch(/"level":(50|60)\b/);
  }, 180_000);
});
