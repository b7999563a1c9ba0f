import type { DatabaseOptions } from "../client/database-options.types";
import { openDatabase } from "../client/open-database";
import { migrate } from "../migrate/migrator";
import { PrismaJobStore } from "./prisma-job-store";

export interface CreateJobStoreOptions extends DatabaseOptions {
  /** Apply pending migrations before returning the store. Default true. */
  migrate?: boolean;
  /** Folder of migration folders. Default: `prisma/migrations` of this repository. */
  migrationsDir?: string;
  /** Directory of the trajectory archive (retention). Default none: nothing can be archived. */
  archiveDir?: string;
}

/**
 * Opens the database (PGlite by default, PostgreSQL with `databaseUrl`), applies pending
 * migrations and returns a ready `JobStore`. `close()` releases every connection and the PGlite
 * instance, so the process can exit.
 */
export async function createJobStore(options: CreateJobStoreOptions = {}): Promise<PrismaJobStore> {
  const database = await openDatabase(options);
  try {
    if (options.migrate !== false) {
      const result = await migrate(database.migrationTarget, {
        ...(options.migrationsDir !== undefined && { migrationsDir: options.migrationsDir }),
        ...(options.logger !== undefined && { logger: options.logger }),
      });
      options.logger?.debug(
        {
          target: database.description,
          applied: result.applied,
          alreadyApplied: result.alreadyApplied.length,
        },
        "database schema is up to date",
      );
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return new PrismaJobStore({
    prisma: database.prisma,
    sql: database.sql,
    kind: database.kind,
    release: database.close,
    ...(options.archiveDir !== undefined && { archiveDir: options.archiveDir }),
  });
}
