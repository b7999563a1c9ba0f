import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PrivatePostgresServer } from "./support/private-postgres-server";

describe("PrivatePostgresServer (test support)", () => {
  let server: PrivatePostgresServer | null = null;
  afterAll(async () => server?.dispose());

  it("starts, cuts every connection on an immediate stop, and restarts on the same port and data", async () => {
    server = await PrivatePostgresServer.start();
    const client = new pg.Client({ connectionString: server.url });
    const errors: string[] = [];
    client.on("error", (error) => errors.push(error.message));
    await client.connect();
    await client.query("CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)");
    const firstPid = server.pid;
    expect(firstPid).toBeGreaterThan(0);
    await server.restart({ mode: "immediate", downMs: 200 });
    await expect(client.query("SELECT 1")).rejects.toThrow();
    expect(server.pid).not.toBe(firstPid);
    await client.end().catch(() => {});
    const again = new pg.Client({ connectionString: server.url });
    again.on("error", (error) => errors.push(error.message));
    await again.connect();
    const { rows } = await again.query("SELECT n FROM kept").finally(() => again.end());
    expect(rows).toEqual([{ n: 7 }]);
  }, 60_000);
});
