import type { WorkerRecord, WorkerStore } from "@raas/engine";

/**
 * The worker registry behind the `workers.*` procedures. Type-only: the API depends on the
 * engine's `WorkerStore` port, never on `@raas/db`; the app hands in an adapter (Prisma on
 * PGlite/PostgreSQL, or the engine's in-memory one).
 */
export type { WorkerRecord, WorkerStore };
