import { randomUUID } from "node:crypto";
import type { DbLogger } from "../db-logger.types";
import { type MigrationFile, readMigrationFiles } from "./migration-files";
import type { MigrationSession, MigrationTarget } from "./migration-target.types";

export interface MigrateOptions {
  /** Folder of `<timestamp>_<name>/migration.sql` folders. Default: `prisma/migrations` of this repository. */
  migrationsDir?: string;
  logger?: DbLogger;
}

export interface MigrateResult {
  /** Migrations this call applied, in order. */
  applied: string[];
  /** Migrations that were applied before this call. */
  alreadyApplied: string[];
}

/**
 * The bookkeeping table of `prisma migrate`, so the Prisma CLI (`migrate status`, `migrate dev`)
 * agrees with what this migrator applied, and the other way round.
 */
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow extends Record<string, unknown> {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
}

/**
 * Applies the committed migration SQL that `target` has not seen yet, each in its own
 * transaction together with its bookkeeping row. Idempotent; concurrent callers serialize on the
 * target's lock, so the second one finds everything applied and does nothing.
 */
export async function migrate(target: MigrationTarget, options: MigrateOptions = {}): Promise<MigrateResult> {
  const files = await readMigrationFiles(options.migrationsDir);
  const logger = options.logger;
  return target.withExclusiveSession(async (session) => {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await session.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const applied = new Map<string, AppliedRow>();
    for (const row of rows) {
      if (row.finished_at === null) {
        throw new Error(
          `migration ${row.migration_name} was started but never finished on ${target.description}; ` +
            "repair the database, then mark it with `prisma migrate resolve`",
        );
      }
      applied.set(row.migration_name, row);
    }
    warnAboutDrift(files, applied, target, logger);

    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const file of files) {
      if (applied.has(file.name)) {
        result.alreadyApplied.push(file.name);
        continue;
      }
      await applyOne(session, file);
      result.applied.push(file.name);
      logger?.info({ migration: file.name, target: target.description }, "applied migration");
    }
    return result;
  });
}

async function applyOne(session: MigrationSession, file: MigrationFile): Promise<void> {
  try {
    await session.transaction(async (tx) => {
      await tx.exec(file.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), file.checksum, file.name],
      );
    });
  } catch (error) {
    throw new Error(`migration ${file.name} failed and was rolled back: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function warnAboutDrift(
  files: readonly MigrationFile[],
  applied: ReadonlyMap<string, AppliedRow>,
  target: MigrationTarget,
  logger: DbLogger | undefined,
): void {
  if (!logger) return;
  const known = new Set(files.map((file) => file.name));
  for (const file of files) {
    const row = applied.get(file.name);
    if (row && row.checksum !== file.checksum) {
      logger.warn(
        { migration: file.name, target: target.description },
        "migration.sql changed after it was applied; the database keeps the old version — add a new migration instead",
      );
    }
  }
  for (const name of applied.keys()) {
    if (!known.has(name)) {
      logger.warn(
        { migration: name, target: target.description },
        "database has a migration this code does not know",
      );
    }
  }
}
