import type { DbLogger } from "../db-logger.types";
import type { ConnectionHealthSink } from "./guarded-pool";
import type { PgliteMaintenanceOptions } from "./pglite-maintenance";

/** Where the data lives. PGlite (embedded, no server) unless `databaseUrl` is given. */
export interface DatabaseOptions {
  /**
   * PostgreSQL connection URL (`postgresql://user:password@host:5432/database`). When given,
   * PostgreSQL is used and `dataDir` is ignored. A Prisma-style `?schema=name` is honoured.
   */
  databaseUrl?: string;
  /**
   * PGlite data directory, created when missing, kept mode 0700 with its files owner-only
   * (tightened at every open); relative paths resolve against the process's
   * working directory. `memory://` keeps everything in memory. Default `./.raas/pglite`.
   */
  dataDir?: string;
  /**
   * PostgreSQL schema holding the tables; created by the migrator when missing. PostgreSQL only
   * (a PGlite data directory is its own database). Default: the URL's `?schema=`, else `public`.
   */
  schema?: string;
  /** Most PostgreSQL connections the store's pool opens. Default 10. Ignored for PGlite. */
  maxConnections?: number;
  /** PGlite only: periodic checkpoints (bounding `pg_wal`) and vacuums. Defaults in `PgliteMaintenanceOptions`. */
  pgliteMaintenance?: Omit<PgliteMaintenanceOptions, "logger">;
  logger?: DbLogger;
  /**
   * Told of every PostgreSQL connection opened and lost (a `StoreHealth` of `@raas/engine`), so
   * the process knows when its database is unreachable. Default none. Ignored for PGlite.
   */
  health?: ConnectionHealthSink;
}

export const DEFAULT_PGLITE_DATA_DIR = "./.raas/pglite";
export const DEFAULT_MAX_CONNECTIONS = 10;
