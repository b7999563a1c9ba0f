export type { ArchivedTrajectory } from "./archive/archive-record-codec";
export {
  type ArchiveRunResult,
  archiveFileName,
  TrajectoryArchive,
  type TrajectoryArchiveOptions,
} from "./archive/trajectory-archive";
export { PrismaBackendRegistrationStore } from "./backend/prisma-backend-registration-store";
export { PrismaBatchStore } from "./batch/prisma-batch-store";
export type {
  BenchmarkResultRecord,
  BenchmarkRunRecord,
  TestOutcomes,
} from "./benchmark/benchmark-run.types";
export { PrismaBenchmarkRunStore } from "./benchmark/prisma-benchmark-run-store";
export type { DatabaseOptions } from "./client/database-options.types";
export { DEFAULT_PGLITE_DATA_DIR } from "./client/database-options.types";
export { isDatabaseUnavailableError } from "./client/database-unavailable";
export { type ConnectionHealthSink, GuardedPool } from "./client/guarded-pool";
export { type OpenedDatabase, openDatabase } from "./client/open-database";
export { makePrivateDir, restrictTreeToOwner } from "./client/private-dir";
export { type WaitForDatabaseOptions, waitForDatabase } from "./client/wait-for-database";
export { decodeLogprobs, decodeTokenIds, encodeLogprobs, encodeTokenIds } from "./codec/token-codec";
export { PrismaCurriculumStore } from "./curriculum/prisma-curriculum-store";
export type { DbLogger } from "./db-logger.types";
export { type GatewayCallStoreOptions, PrismaGatewayCallStore } from "./gateway/prisma-gateway-call-store";
export { DEFAULT_MIGRATIONS_DIR, type MigrationFile, readMigrationFiles } from "./migrate/migration-files";
export type { MigrationSession, MigrationTarget } from "./migrate/migration-target.types";
export { type MigrateOptions, type MigrateResult, migrate } from "./migrate/migrator";
export { PrismaSandboxEventStore } from "./sandbox/prisma-sandbox-event-store";
export type { SqlExecutor } from "./sql/sql-executor";
export { type CreateJobStoreOptions, createJobStore } from "./store/create-job-store";
export { PrismaJobStore, type PrismaJobStoreOptions } from "./store/prisma-job-store";
export { PrismaWorkerStore } from "./worker/prisma-worker-store";
