// Issue 31 part 8: the embedded store's write-ahead log grew from 67 to 352 MB in 35 minutes
// with no checkpoint ever issued. PGlite has no checkpointer: the store must checkpoint itself.
import { mkdtemp, readdir, readlink, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type OpenedDatabase, openDatabase } from "../src/index";

const MIB = 1024 * 1024;

async function walDirBytes(dataDir: string): Promise<number> {
  const dir = path.join(dataDir, "pg_wal");
  let total = 0;
  for (const name of await readdir(dir)) {
    const entry = await stat(path.join(dir, name));
    if (entry.isFile()) total += entry.size;
  }
  return total;
}

/** About 16 MiB of WAL: rows of ~1 KiB, under the TOAST threshold, so nothing is compressed. */
const WRITE_CHUNK = `INSERT INTO scratch (payload)
  SELECT md5(random()::text) || repeat(md5(random()::text), 30) FROM generate_series(1, 14000)`;

async function walPosition(db: OpenedDatabase): Promise<number> {
  const rows = await db.sql.query<{ at: string }>("SELECT pg_current_wal_lsn() - '0/0' AS at", []);
  return Number(rows[0]?.at);
}

describe("embedded store maintenance (file-backed PGlite)", () => {
  let dataDir = "";

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "raas-pglite-wal-"));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps pg_wal bounded however much WAL is written", async () => {
    const dir = path.join(dataDir, "maintained");
    const db = await openDatabase({
      dataDir: dir,
      pgliteMaintenance: { checkEveryMs: 0, vacuumEveryMs: 0, checkpointAfterWalBytes: 32 * MIB },
    });
    try {
      await db.sql.execute("CREATE TABLE scratch (id serial PRIMARY KEY, payload text)", []);
      const start = await walPosition(db);
      let checkpoints = 0;
      let peak = 0;
      for (let chunk = 0; chunk < 12; chunk += 1) {
        await db.sql.execute(WRITE_CHUNK, []);
        // Churn as the engine's job transitions do: dead rows and more WAL.
        await db.sql.execute("DELETE FROM scratch WHERE id % 3 = 0", []);
        peak = Math.max(peak, await walDirBytes(dir));
        const pass = await db.maintenance?.runOnce();
        if (pass?.checkpointed) checkpoints += 1;
      }
      const written = (await walPosition(db)) - start;
      // Without a checkpoint pg_wal holds every byte written: ~190 MiB here.
      expect(written).toBeGreaterThan(160 * MIB);
      expect(checkpoints).toBeGreaterThanOrEqual(4);
      // With one every 32 MiB it stays a few 16 MiB segments.
      expect(peak).toBeLessThanOrEqual(80 * MIB);
      expect(await walDirBytes(dir)).toBeLessThanOrEqual(80 * MIB);
    } finally {
      await db.close();
    }
  }, 300_000);

  it("checkpoints at close, so a reopened store has no WAL to replay", async () => {
    const dir = path.join(dataDir, "close");
    const first = await openDatabase({ dataDir: dir, pgliteMaintenance: { checkEveryMs: 0 } });
    await first.sql.execute("CREATE TABLE scratch (id serial PRIMARY KEY, payload text)", []);
    await first.sql.execute(WRITE_CHUNK, []);
    expect((await first.maintenance?.walStatus())?.walBytesSinceCheckpoint).toBeGreaterThan(8 * MIB);
    await first.close();
    const second = await openDatabase({ dataDir: dir, pgliteMaintenance: { checkEveryMs: 0 } });
    try {
      expect((await second.maintenance?.walStatus())?.walBytesSinceCheckpoint).toBeLessThan(1 * MIB);
      expect(await second.sql.query("SELECT count(*)::int AS n FROM scratch", [])).toEqual([{ n: 14_000 }]);
    } finally {
      await second.close();
    }
  }, 60_000);

  it("vacuums on its schedule (PGlite runs no autovacuum)", async () => {
    let now = 0;
    const db = await openDatabase({
      dataDir: path.join(dataDir, "vacuum"),
      pgliteMaintenance: { checkEveryMs: 0, vacuumEveryMs: 60_000, nowMs: () => now },
    });
    try {
      await db.sql.execute("CREATE TABLE scratch (id serial PRIMARY KEY, payload text)", []);
      await db.sql.execute(WRITE_CHUNK, []);
      await db.sql.execute("DELETE FROM scratch", []);
      // VACUUM reports itself to the shared statistics at once; the DELETE's dead-row count may
      // still wait in the backend's pending statistics (flushed at most once a second), so
      // n_dead_tup read right after can show the rows again: count the table's vacuums instead.
      const vacuums = () =>
        db.sql.query<{ n: number }>(
          "SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = 'scratch'",
          [],
        );
      expect((await db.maintenance?.runOnce())?.vacuumed).toBe(false);
      expect(await vacuums()).toEqual([{ n: 0 }]);
      now = 60_000;
      expect((await db.maintenance?.runOnce())?.vacuumed).toBe(true);
      expect(await vacuums()).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it("vacuums the store's tables, not the catalogs, so PGlite holds few more descriptors after", async () => {
    const dir = path.join(dataDir, "fds");
    const openInStore = async () => {
      let count = 0;
      for (const fd of await readdir("/proc/self/fd")) {
        const target = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
        if (target.startsWith(dir)) count += 1;
      }
      return count;
    };
    let now = 0;
    const db = await openDatabase({
      dataDir: dir,
      pgliteMaintenance: { checkEveryMs: 0, vacuumEveryMs: 60_000, nowMs: () => now },
    });
    try {
      await db.sql.execute("CREATE TABLE scratch (id serial PRIMARY KEY, payload text)", []);
      await db.sql.execute(WRITE_CHUNK, []);
      await db.sql.execute("DELETE FROM scratch", []);
      const before = await openInStore();
      now = 60_000;
      expect((await db.maintenance?.runOnce())?.vacuumed).toBe(true);
      const afterFirst = await openInStore();
      now = 120_000;
      expect((await db.maintenance?.runOnce())?.vacuumed).toBe(true);
      // A database-wide VACUUM opens ~180 catalog files and keeps them open; ours adds the free-space
      // and visibility files of its own tables only, once.
      expect(afterFirst - before).toBeLessThan(40);
      expect(await openInStore()).toBeLessThanOrEqual(afterFirst + 5);
    } finally {
      await db.close();
    }
  }, 60_000);

  it("PostgreSQL has no embedded maintenance (it runs its own checkpointer)", async () => {
    // Opening does not connect: the pool connects on first use.
    const db = await openDatabase({ databaseUrl: "postgresql://postgres@127.0.0.1:5432/postgres" });
    try {
      expect(db.maintenance).toBeNull();
    } finally {
      await db.close();
    }
  });
});
