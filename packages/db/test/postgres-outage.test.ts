import { StoreHealth } from "@raas/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailableError } from "../src/client/database-unavailable";
import { createJobStore } from "../src/store/create-job-store";
import type { PrismaJobStore } from "../src/store/prisma-job-store";
import { PrivatePostgresServer } from "./support/private-postgres-server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The database stopped like a crash (`pg_ctl -m immediate`) while transactions hold pooled
// connections — the job store's own (`sql.transaction`) and Prisma's, interactive and batched —
// and started again. The process lives on (a connection cut under a checked-out client used to
// be an unhandled 'error' event), every failure says the database is unavailable, the store's
// health follows, and afterwards the pool has all its connections (none kept by a transaction
// whose ROLLBACK could not run).
describe("a PostgreSQL restart under open transactions", () => {
  let server: PrivatePostgresServer;
  let store: PrismaJobStore;
  let health: StoreHealth;
  beforeAll(async () => {
    server = await PrivatePostgresServer.start();
    health = new StoreHealth({ isConnectionError: isDatabaseUnavailableError });
    store = await createJobStore({ databaseUrl: server.urlWithSchema("outage"), maxConnections: 4, health });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await server?.dispose();
  });

  it("fails the transactions it cut as unavailable, and serves every connection again after", async () => {
    const { prisma, sql } = store;
    const holding: Array<Promise<unknown>> = [];
    let stopped = false;
    const whileUp = async () => {
      while (!stopped) await sleep(10);
    };
    // Each transaction runs one statement, then waits (holding its connection) for the stop.
    for (let i = 0; i < 2; i += 1) {
      holding.push(
        sql.transaction(async (tx) => {
          await tx.query("SELECT 1", []);
          await whileUp();
          await tx.query("SELECT 2", []);
        }),
      );
      holding.push(
        prisma.$transaction(async (tx) => {
          await tx.job.count();
          await whileUp();
          await tx.job.count();
        }),
      );
    }
    // Settled from the start: a transaction cut at the stop rejects at once.
    const settled = Promise.allSettled(holding);
    await sleep(300);
    await server.stop("immediate");
    stopped = true;
    const outcomes = await settled;
    for (const outcome of outcomes) {
      expect(outcome.status).toBe("rejected");
      const reason = (outcome as PromiseRejectedResult).reason;
      expect(isDatabaseUnavailableError(reason), String(reason)).toBe(true);
    }
    // While it is down: plain statements and batched transactions fail as unavailable too.
    for (const attempt of [
      () => prisma.job.count(),
      () => prisma.$transaction([prisma.job.count(), prisma.job.count()]),
      () => sql.query("SELECT 1", []),
      () => store.getJob("job_missing"),
    ]) {
      const error = await attempt().then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(isDatabaseUnavailableError(error), String(error)).toBe(true);
    }
    expect(health.state()).toMatchObject({ available: false, outages: 1 });

    await server.start();
    // More transactions at once than the pool has connections: each gets one.
    const counts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? prisma.$transaction(async (tx) => tx.job.count())
          : sql.transaction(async (tx) => (await tx.query<{ n: number }>("SELECT 0 AS n", []))[0]?.n),
      ),
    );
    expect(counts).toEqual(Array.from({ length: 12 }, () => 0));
    expect(health.state()).toMatchObject({ available: true, outages: 1 });
  }, 120_000);
});
