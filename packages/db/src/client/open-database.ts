import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type Prisma, PrismaClient } from "../generated/client";
import type { MigrationTarget } from "../migrate/migration-target.types";
import { PgliteMigrationTarget } from "../migrate/pglite-migration-target";
import { PostgresMigrationTarget } from "../migrate/postgres-migration-target";
import { pgliteExecutor, pgPoolExecutor, type SqlExecutor } from "../sql/sql-executor";
import {
  type DatabaseOptions,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_PGLITE_DATA_DIR,
} from "./database-options.types";
import { GuardedPool } from "./guarded-pool";
import { PgliteMaintenance } from "./pglite-maintenance";
import { resolvePostgresConnection } from "./postgres-connection";
import { makePrivateDir, restrictTreeToOwner } from "./private-dir";

/** An opened database: a Prisma client, the driver under it, and what the migrator needs. */
export interface OpenedDatabase {
  kind: "pglite" | "postgres";
  /** Host/database/schema or data directory, for logs; never a password. */
  description: string;
  prisma: PrismaClient;
  /** The same connection(s) Prisma uses, for bulk statements. */
  sql: SqlExecutor;
  migrationTarget: MigrationTarget;
  /** The embedded store's checkpoints and vacuums (started here); null for PostgreSQL, which runs its own. */
  maintenance: PgliteMaintenance | null;
  /** Disconnects Prisma and closes the pool or PGlite instance (which keeps the process alive otherwise). Idempotent. */
  close(): Promise<void>;
}

/** How long opening one PostgreSQL connection may take before it fails (and is retried), in ms. */
const CONNECT_TIMEOUT_MS = 30_000;

type AdapterFactory = NonNullable<Prisma.PrismaClientOptions["adapter"]>;

/**
 * pglite-prisma-adapter 0.6.1 is typed against driver-adapter-utils 6.10; the runtime contract is
 * the same as 6.19's, only the nominal types differ. Checked at run time rather than cast, so a
 * version whose factory is not Prisma's fails here with a sentence.
 */
function asAdapterFactory(adapter: object): AdapterFactory {
  if (isAdapterFactory(adapter)) return adapter;
  throw new Error(
    "pglite-prisma-adapter did not return a PostgreSQL driver adapter factory (provider, connect())",
  );
}

function isAdapterFactory(value: object): value is AdapterFactory {
  return (
    "provider" in value &&
    value.provider === "postgres" &&
    "connect" in value &&
    typeof value.connect === "function"
  );
}

/** Opens PostgreSQL when `databaseUrl` is given, else a PGlite database under `dataDir`. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<OpenedDatabase> {
  return options.databaseUrl !== undefined ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

async function openPostgres(databaseUrl: string, options: DatabaseOptions): Promise<OpenedDatabase> {
  const connection = resolvePostgresConnection(databaseUrl, options.schema);
  // Guarded: a connection cut under a running transaction must not end the process, nor keep
  // its slot (see GuardedPool). A connect that hangs (an unreachable host) gives up after 30 s.
  const pool = new GuardedPool(
    {
      ...connection.config,
      max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    },
    { ...(options.health && { health: options.health }), ...(options.logger && { logger: options.logger }) },
  );
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema: connection.schema }) });
  return {
    kind: "postgres",
    description: connection.description,
    prisma,
    sql: pgPoolExecutor(pool),
    migrationTarget: new PostgresMigrationTarget(connection),
    maintenance: null,
    close: once(async () => {
      try {
        await prisma.$disconnect();
      } finally {
        await pool.end();
      }
    }),
  };
}

async function openPglite(options: DatabaseOptions): Promise<OpenedDatabase> {
  if (options.schema !== undefined) {
    throw new Error("the schema option is for PostgreSQL; give PGlite its own dataDir instead");
  }
  const dataDir = options.dataDir ?? DEFAULT_PGLITE_DATA_DIR;
  const isMemory = dataDir.startsWith("memory://");
  const location = isMemory ? dataDir : path.resolve(dataDir);
  if (!isMemory) await makePrivateDir(location);
  const pglite = await PGlite.create(location);
  // After create: PGlite writes its files 0666; the 0700 directory already keeps others out.
  if (!isMemory) await restrictTreeToOwner(location);
  const adapter = asAdapterFactory(new PrismaPGlite(pglite));
  const prisma = new PrismaClient({ adapter });
  const description = `pglite ${location}`;
  const maintenance = new PgliteMaintenance(pglite, {
    ...options.pgliteMaintenance,
    ...(options.logger && { logger: options.logger }),
  });
  maintenance.start();
  return {
    kind: "pglite",
    description,
    prisma,
    sql: pgliteExecutor(pglite),
    migrationTarget: new PgliteMigrationTarget(pglite, description),
    maintenance,
    close: once(async () => {
      try {
        await maintenance.close();
        await prisma.$disconnect();
      } finally {
        await pglite.close();
      }
    }),
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => {
    running ??= fn();
    return running;
  };
}
