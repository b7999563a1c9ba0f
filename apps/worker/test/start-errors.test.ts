import { describe, expect, it } from "vitest";
import { spawnWorker } from "./support/spawn-worker";

describe("a worker that cannot start", () => {
  it("says in one line that the store is unreachable, without a stack or the URL, and exits 2", async () => {
    const failed = spawnWorker({
      DATABASE_URL: "postgresql://raas:hunter2@127.0.0.1:1/raas",
      RAAS_QUEUE: "redis://127.0.0.1:6379",
      RAAS_QUEUE_PREFIX: "raas-test-unreachable",
      RAAS_SANDBOX_RUNTIME: "local",
    });
    await expect(failed).rejects.toThrow(/exited with 2 before it started/);
    const message = String(await failed.catch((error: Error) => error.message));
    expect(message).toContain(
      "the worker could not start: connect ECONNREFUSED 127.0.0.1:1 — is the PostgreSQL of DATABASE_URL running",
    );
    expect(message).not.toContain("hunter2");
    expect(message).not.toMatch(/\n\s+at /);
  }, 90_000);
});
