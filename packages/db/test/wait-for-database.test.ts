import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForDatabase } from "../src/client/wait-for-database";
import { PrivatePostgresServer } from "./support/private-postgres-server";

function recordingLogger() {
  const warnings: string[] = [];
  return {
    warnings,
    logger: {
      debug: () => {},
      info: () => {},
      warn: (_fields: unknown, message: string) => warnings.push(message),
    },
  };
}

// A worker or server started while its PostgreSQL is still coming up (a host boot, an upgrade's
// restart) waits for it rather than exiting at once; what waiting cannot fix fails at once.
describe("waiting for PostgreSQL at start", () => {
  let server: PrivatePostgresServer;
  beforeAll(async () => {
    server = await PrivatePostgresServer.start();
  }, 120_000);
  afterAll(async () => {
    await server?.dispose();
  });

  it("waits while the database is down and returns once it has started", async () => {
    await server.stop("immediate");
    const { warnings, logger } = recordingLogger();
    let started = false;
    const waited = waitForDatabase(server.url, { maxWaitMs: 120_000, logger }).then(() => started);
    // Started only after the waiter has met the stopped server at least twice.
    while (warnings.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    await server.start();
    started = true;
    expect(await waited).toBe(true);
    expect(warnings[0]).toBe(`waiting for PostgreSQL at 127.0.0.1:${server.port} (attempt 1)`);
    expect(warnings[1]).toBe(`waiting for PostgreSQL at 127.0.0.1:${server.port} (attempt 2)`);
  }, 120_000);

  it("gives up after its bounded wait with the connection error", async () => {
    await server.stop("immediate");
    try {
      const { warnings, logger } = recordingLogger();
      await expect(waitForDatabase(server.url, { maxWaitMs: 600, logger })).rejects.toMatchObject({
        code: "ECONNREFUSED",
      });
      expect(warnings.length).toBeGreaterThanOrEqual(1);
    } finally {
      await server.start();
    }
  }, 120_000);

  it("does not wait for a database that does not exist, or a URL that is not PostgreSQL's", async () => {
    const { warnings, logger } = recordingLogger();
    const missing = server.url.replace(/\/postgres(\?|$)/, "/no_such_database$1");
    await expect(waitForDatabase(missing, { maxWaitMs: 120_000, logger })).rejects.toThrow(
      /database "no_such_database" does not exist/,
    );
    await expect(waitForDatabase("mysql://127.0.0.1/x", { maxWaitMs: 120_000, logger })).rejects.toThrow(
      /must start with postgresql:\/\//,
    );
    expect(warnings).toEqual([]);
  }, 120_000);
});
