import { DistributedStoreError } from "@raas/compose";
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { EnvError, parseServerEnv } from "../src/env";
import { startServer } from "../src/server";

const DISTRIBUTED = { DATABASE_URL: "postgresql://raas@db:5432/raas", RAAS_QUEUE: "redis://redis:6379" };
const errorOf = (source: Record<string, string>) => {
  try {
    parseServerEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected an EnvError");
};

describe("the server's distributed mode from the environment", () => {
  it("stays embedded by default: the memory queue, every pool", () => {
    const config = configFromEnv(parseServerEnv({}));
    expect(config.queue).toEqual({ kind: "memory" });
    expect(config.pools).toEqual({ init: {}, run: {}, eval: {} });
  });

  it("RAAS_QUEUE with DATABASE_URL selects the Redis queue (prefix from RAAS_QUEUE_PREFIX)", () => {
    const config = configFromEnv(parseServerEnv({ ...DISTRIBUTED, RAAS_QUEUE_PREFIX: "team-a" }));
    expect(config.queue).toEqual({ kind: "redis", url: DISTRIBUTED.RAAS_QUEUE, prefix: "team-a" });
    expect(config.store).toMatchObject({ kind: "db", databaseUrl: DISTRIBUTED.DATABASE_URL });
  });

  it("refuses RAAS_QUEUE without PostgreSQL, in one clear line each", () => {
    expect(errorOf({ RAAS_QUEUE: DISTRIBUTED.RAAS_QUEUE })).toContain(
      "RAAS_QUEUE: distributed mode needs DATABASE_URL=postgres://",
    );
    expect(errorOf({ ...DISTRIBUTED, RAAS_STORE: "memory" })).toContain(
      "RAAS_STORE: distributed mode (RAAS_QUEUE) needs the db store",
    );
    expect(errorOf({ ...DISTRIBUTED, RAAS_QUEUE: "redis-host:6379" })).toContain(
      "RAAS_QUEUE: expected a redis:// or rediss:// URL (value hidden)",
    );
  });

  it("RAAS_SERVER_POOLS sizes the server's pools; none makes an API-only server", () => {
    expect(configFromEnv(parseServerEnv({ ...DISTRIBUTED, RAAS_SERVER_POOLS: "none" })).pools).toEqual({
      init: { concurrency: 0 },
      run: { concurrency: 0 },
      eval: { concurrency: 0 },
    });
    expect(
      configFromEnv(parseServerEnv({ RAAS_SERVER_POOLS: "run=8", RAAS_RUN_TIMEOUT_MS: "5000" })).pools,
    ).toEqual({
      init: { concurrency: 0 },
      run: { concurrency: 8, timeoutMs: 5_000 },
      eval: { concurrency: 0 },
    });
    expect(errorOf({ RAAS_SERVER_POOLS: "run=8", RAAS_RUN_CONCURRENCY: "4" })).toContain(
      "RAAS_RUN_CONCURRENCY: RAAS_SERVER_POOLS sets the pools",
    );
  });

  it("a server given a Redis queue on PGlite does not start: a DistributedStoreError naming DATABASE_URL", async () => {
    await expect(
      startServer({
        port: 0,
        logLevel: "silent",
        agentHandlers: false,
        store: { kind: "db", dataDir: "/nonexistent/raas" },
        queue: { kind: "redis", url: "redis://127.0.0.1:6379" },
      }),
    ).rejects.toThrow(DistributedStoreError);
    await expect(
      startServer({
        port: 0,
        logLevel: "silent",
        agentHandlers: false,
        queue: { kind: "redis", url: "redis://x" },
      }),
    ).rejects.toThrow(/needs a PostgreSQL store shared by every process: set DATABASE_URL/);
  });
});
