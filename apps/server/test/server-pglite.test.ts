import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../src/server";

describe("startServer with the embedded PGlite store", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "raas-server-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps jobs across a restart on the same data directory", async () => {
    const config = {
      port: 0,
      logLevel: "silent",
      store: { kind: "db" as const, dataDir },
      auth: { trainerToken: "t" },
    };
    const first = await startServer(config);
    expect(first.storeKind).toBe("pglite");
    const headers = { authorization: "Bearer t", "content-type": "application/json" };
    const submitted = await fetch(`${first.url}/api/v1/jobs`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        kind: "sleep",
        jobKey: "durable-1",
        payload: { initMs: 1, runMs: 1, evalMs: 1 },
      }),
    }).then((r) => r.json() as Promise<{ job: { id: string } }>);
    const waited = await fetch(`${first.url}/api/v1/jobs/wait`, {
      method: "POST",
      headers,
      body: JSON.stringify({ ids: [submitted.job.id], timeoutMs: 20_000 }),
    }).then((r) => r.json() as Promise<{ done: boolean }>);
    expect(waited.done).toBe(true);
    await first.close({ graceMs: 100 });

    const second = await startServer(config);
    try {
      const job = (await fetch(`${second.url}/api/v1/jobs/${submitted.job.id}`).then((r) => r.json())) as {
        status: string;
        reward: number;
      };
      expect(job.status).toBe("completed");
      expect(job.reward).toBe(1);
      // The same request under the same key finds the stored job after the restart...
      const again = await fetch(`${second.url}/api/v1/jobs`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          kind: "sleep",
          jobKey: "durable-1",
          payload: { initMs: 1, runMs: 1, evalMs: 1 },
        }),
      });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { job: { id: string } }).job.id).toBe(submitted.job.id);
      // ...and another request under that key is a conflict naming what differs.
      const other = await fetch(`${second.url}/api/v1/jobs`, {
        method: "POST",
        headers,
        body: JSON.stringify({ kind: "sleep", jobKey: "durable-1" }),
      });
      expect(other.status).toBe(409);
      const conflict = (await other.json()) as { error: { details: { fields: string[] } } };
      expect(conflict.error.details.fields).toEqual(["payload"]);
    } finally {
      await second.close({ graceMs: 100 });
    }
  }, 120_000);
});
