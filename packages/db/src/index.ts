export { TrajectoryArchive } from "./archive/trajectory-archive";
export { PrismaBackendRegistrationStore } from "./backend/prisma-backend-registration-store";
export { PrismaBatchStore } from "./batch/prisma-batch-store";

export { PrismaBenchmarkRunStore } from "./benchmark/prisma-benchmark-run-store";
export type { DatabaseOptions } from "./client/database-options.types";
export { isDatabaseUnavailableError } from "./client/database-unavailable";
export { type OpenedDatabase, openDatabase } from "./client/open-database";
export { makePrivateDir, restrictTreeToOwner } from "./client/private-dir";
export { waitForDatabase } from "./client/wait-for-database";
export { decodeLogprobs, decodeTokenIds, encodeLogprobs, encodeTokenIds } from "./codec/token-codec";
export { PrismaCurriculumStore } from "./curriculum/prisma-curriculum-store";
export type { DbLogger } from "./db-logger.types";
export { PrismaEnvironmentStore } from "./environment/prisma-environment-store";
export { PrismaGatewayCallStore } from "./gateway/prisma-gateway-call-store";
export { DEFAULT_MIGRATIONS_DIR, readMigrationFiles } from "./migrate/migration-files";

export { migrate } from "./migrate/migrator";
export { PrismaSandboxEventStore } from "./sandbox/prisma-sandbox-event-store";

export { createJobStore } from "./store/create-job-store";
export { PrismaJobStore } from "./store/prisma-job-store";
export { PrismaWorkerStore } from "./worker/prisma-worker-store";
