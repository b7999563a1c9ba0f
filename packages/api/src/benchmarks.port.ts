import type { BenchmarkRunRecord, BenchmarkRunStore } from "@raas/engine";

/**
 * The benchmark-run store behind the `benchmarks.*` procedures. Type-only: the API depends on the
 * engine's `BenchmarkRunStore` port, never on `@raas/db`; the app hands in an adapter (Prisma on
 * PGlite/PostgreSQL, or the engine's in-memory one).
 */
export type { BenchmarkRunRecord, BenchmarkRunStore };
