import type { PGlite } from "@electric-sql/pglite";
import type { DbLogger } from "../db-logger.types";

/**
 * Upkeep of the embedded store. PGlite is PostgreSQL in single-user mode: there is no
 * checkpointer and no autovacuum. Nothing ever checkpoints, so `pg_wal` grows without bound
 * (past `max_wal_size`, which only a checkpointer acts on), and rows that updates and deletes
 * leave dead are never reclaimed, nor are planner statistics refreshed. After a checkpoint the
 * server recycles the segments before the redo point (bounded by `min_wal_size`/`max_wal_size`
 * and its estimate of the checkpoint distance), so checkpointing every `checkpointAfterWalBytes`
 * keeps the directory near two or three times that.
 */
export interface PgliteMaintenanceOptions {
  /** Checkpoint once this many bytes of WAL were written since the last checkpoint. Default 64 MiB. */
  checkpointAfterWalBytes?: number;
  /** How often the WAL is measured, and a checkpoint issued when one is due, in ms. 0: only on `runOnce()`. Default 30_000. */
  checkEveryMs?: number;
  /** How often the database is vacuumed and analyzed, in ms (checked at each pass). 0: never. Default 600_000. */
  vacuumEveryMs?: number;
  /** Clock for the vacuum schedule. Default `Date.now`. */
  nowMs?: () => number;
  logger?: DbLogger;
}

const DEFAULT_CHECKPOINT_AFTER_WAL_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAINTENANCE_CHECK_EVERY_MS = 30_000;
const DEFAULT_VACUUM_EVERY_MS = 600_000;

/** What one maintenance pass found and did. */
export interface PgliteMaintenancePass {
  /** WAL written since the last checkpoint's redo point, before this pass. */
  walBytesSinceCheckpoint: number;
  /** Size of `pg_wal` after this pass (recycled segments included). */
  walDirBytes: number;
  checkpointed: boolean;
  vacuumed: boolean;
}

/** Checkpoints and vacuums an embedded PGlite database on a schedule; see `PgliteMaintenanceOptions`. */
export class PgliteMaintenance {
  readonly #pglite: PGlite;
  readonly #checkpointAfterWalBytes: number;
  readonly #checkEveryMs: number;
  readonly #vacuumEveryMs: number;
  readonly #nowMs: () => number;
  readonly #logger: DbLogger | undefined;
  #lastVacuumMs: number;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<PgliteMaintenancePass> | null = null;
  #closed = false;

  constructor(pglite: PGlite, options: PgliteMaintenanceOptions = {}) {
    this.#pglite = pglite;
    this.#checkpointAfterWalBytes = options.checkpointAfterWalBytes ?? DEFAULT_CHECKPOINT_AFTER_WAL_BYTES;
    this.#checkEveryMs = options.checkEveryMs ?? DEFAULT_MAINTENANCE_CHECK_EVERY_MS;
    this.#vacuumEveryMs = options.vacuumEveryMs ?? DEFAULT_VACUUM_EVERY_MS;
    this.#nowMs = options.nowMs ?? Date.now;
    this.#logger = options.logger;
    this.#lastVacuumMs = this.#nowMs();
  }

  /** Starts the periodic passes (the timer does not keep the process alive). Idempotent. */
  start(): void {
    if (this.#timer || this.#closed || this.#checkEveryMs <= 0) return;
    this.#timer = setInterval(() => {
      if (this.#running) return;
      this.runOnce().catch((error: unknown) =>
        this.#logger?.warn({ err: String(error) }, "embedded store maintenance failed"),
      );
    }, this.#checkEveryMs);
    this.#timer.unref();
  }

  /**
   * One pass: checkpoint when `checkpointAfterWalBytes` of WAL were written since the last one
   * (or always, with `force`), vacuum when `vacuumEveryMs` passed. Passes never overlap.
   */
  runOnce(options: { force?: boolean } = {}): Promise<PgliteMaintenancePass> {
    const previous = this.#running ?? Promise.resolve(null);
    const pass = previous
      .catch(() => null)
      .then(() => this.#pass(options.force === true))
      .finally(() => {
        if (this.#running === pass) this.#running = null;
      });
    this.#running = pass;
    return pass;
  }

  /** WAL written since the last checkpoint, and the size of `pg_wal`, in bytes. */
  async walStatus(): Promise<{ walBytesSinceCheckpoint: number; walDirBytes: number }> {
    const rows = await this.#pglite.query<{ since: string | number; dir: string | number }>(
      `SELECT pg_current_wal_lsn() - (pg_control_checkpoint()).redo_lsn AS since,
              (SELECT coalesce(sum(size), 0) FROM pg_ls_waldir()) AS dir`,
    );
    const row = rows.rows[0];
    return { walBytesSinceCheckpoint: Number(row?.since ?? 0), walDirBytes: Number(row?.dir ?? 0) };
  }

  /** Stops the timer, waits for a pass under way and checkpoints once more, so the next open replays no WAL. Idempotent. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#closed) return;
    this.#closed = true;
    await this.#running?.catch(() => undefined);
    if (this.#pglite.closed) return;
    try {
      await this.#pglite.exec("CHECKPOINT");
    } catch (error) {
      this.#logger?.warn({ err: String(error) }, "checkpoint of the embedded store at close failed");
    }
  }

  /**
   * `VACUUM (ANALYZE)` of the store's own tables, not the catalogs: PGlite's single backend keeps
   * every file it touched open (up to `max_files_per_process`, 1000), and a database-wide vacuum
   * opens each catalog's relation, free-space and visibility files, about 180 descriptors held for
   * good. The catalogs collect dead rows only from DDL (the migrations at start).
   */
  async #vacuumOwnTables(): Promise<void> {
    const { rows } = await this.#pglite.query<{ name: string }>(
      `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
       WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    );
    if (rows.length > 0)
      await this.#pglite.exec(`VACUUM (ANALYZE) ${rows.map((row) => row.name).join(", ")}`);
  }

  async #pass(force: boolean): Promise<PgliteMaintenancePass> {
    const before = await this.walStatus();
    const checkpointed = force || before.walBytesSinceCheckpoint >= this.#checkpointAfterWalBytes;
    const vacuumed = this.#vacuumEveryMs > 0 && this.#nowMs() - this.#lastVacuumMs >= this.#vacuumEveryMs;
    // Vacuum first: its own WAL is then covered by the checkpoint that follows.
    if (vacuumed) {
      await this.#vacuumOwnTables();
      this.#lastVacuumMs = this.#nowMs();
    }
    if (checkpointed) await this.#pglite.exec("CHECKPOINT");
    const walDirBytes = checkpointed || vacuumed ? (await this.walStatus()).walDirBytes : before.walDirBytes;
    if (checkpointed || vacuumed) {
      this.#logger?.debug(
        { walBytesSinceCheckpoint: before.walBytesSinceCheckpoint, walDirBytes, checkpointed, vacuumed },
        "embedded store maintained",
      );
    }
    return { walBytesSinceCheckpoint: before.walBytesSinceCheckpoint, walDirBytes, checkpointed, vacuumed };
  }
}
