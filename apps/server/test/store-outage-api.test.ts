// While PostgreSQL is down the API says so: reads and writes answer 503 with a sentence and a
// `retry-after`, in REST and tRPC alike — never a 500 with a reference to the log. A submission
// refused that way was never acknowledged and left nothing behind; once the database is back,
// the same requests work.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrivatePostgresServer } from "../../../packages/db/test/support/private-postgres-server";
import { type RunningServer, startServer } from "../src/server";

const SLEEP = { initMs: 0, runMs: 0, evalMs: 0 };
const OUTAGE_MESSAGE = "the store is unavailable (PostgreSQL unreachable); retry shortly";

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
  text: string;
}

describe("the API during a PostgreSQL outage", () => {
  let postgres: PrivatePostgresServer;
  let server: RunningServer;
  const dataDir = mkdtempSync(join(tmpdir(), "raas-store-outage-api-"));

  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.auth.adminToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: JSON.parse(text) as Record<string, unknown>,
      text,
    };
  };

  const storedJobCount = async (): Promise<number> => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: string }>("SELECT count(*) FROM raas.jobs");
      return Number(rows[0]?.count);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    postgres = await PrivatePostgresServer.start();
    server = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      store: { kind: "db", dataDir, databaseUrl: postgres.urlWithSchema("raas") },
      // Nothing runs: the jobs stay queued, so what the store holds is only what was submitted.
      pools: { init: { concurrency: 0 }, run: { concurrency: 0 }, eval: { concurrency: 0 } },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close({ graceMs: 100 });
    await postgres?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 503 with a sentence and retry-after, then works again once it is back", async () => {
    const first = await call("POST", "/api/v1/jobs", { kind: "sleep", payload: SLEEP });
    expect(first.status, first.text).toBe(201);
    const id = (first.body.job as { id: string }).id;
    expect(await storedJobCount()).toBe(1);

    await postgres.stop("immediate");
    try {
      const answers = {
        restGet: await call("GET", `/api/v1/jobs/${id}`),
        restSubmit: await call("POST", "/api/v1/jobs", { kind: "sleep", payload: SLEEP }),
        restSubmitKeyed: await call("POST", "/api/v1/jobs", {
          kind: "sleep",
          payload: SLEEP,
          jobKey: "outage",
        }),
        restBatch: await call("POST", "/api/v1/jobs/batch", { jobs: [{ kind: "sleep", payload: SLEEP }] }),
        trpcSubmit: await call("POST", "/trpc/jobs.submit", { kind: "sleep", payload: SLEEP }),
        trpcGet: await call("GET", `/trpc/jobs.get?input=${encodeURIComponent(JSON.stringify({ id }))}`),
      };
      for (const [name, answer] of Object.entries(answers)) {
        expect(answer.status, `${name}: ${answer.text}`).toBe(503);
        expect(answer.retryAfter, name).toMatch(/^[1-9][0-9]*$/);
        expect(answer.text, name).toContain(OUTAGE_MESSAGE);
        expect(answer.text, name).not.toMatch(/internal error|\n\s+at /);
      }
      expect(answers.restGet.body.error).toMatchObject({ code: "UNAVAILABLE", message: OUTAGE_MESSAGE });
      expect(answers.trpcGet.body.error).toMatchObject({
        message: OUTAGE_MESSAGE,
        data: { code: "UNAVAILABLE", httpStatus: 503 },
      });
    } finally {
      await postgres.start();
    }

    // Back: the refused submission left nothing, and the same requests work.
    expect(await storedJobCount()).toBe(1);
    const got = await call("GET", `/api/v1/jobs/${id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.id).toBe(id);
    const again = await call("POST", "/api/v1/jobs", { kind: "sleep", payload: SLEEP, jobKey: "outage" });
    expect(again.status, again.text).toBe(201);
    expect(await storedJobCount()).toBe(2);
    const listed = await call("GET", "/api/v1/jobs");
    expect((listed.body.items as unknown[]).length, listed.text).toBe(2);
  }, 120_000);
});
