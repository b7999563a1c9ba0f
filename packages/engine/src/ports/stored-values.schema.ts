import { ZStage } from "@raas/shared";
import { z } from "zod";
import type { BenchmarkResultRecord, BenchmarkRunRecord } from "./benchmark-run-store.port";
import type { BackendView } from "./inference-pool.port";
import type { JobHandoff } from "./job-record.types";
import type { WorkerPoolOccupancy, WorkerRecord } from "./worker-store.port";

// Schemas of the port values a store keeps as JSON, for adapters that read them back (parse, don't
// cast). Each is tied to its interface by `satisfies`, so the two cannot drift apart unnoticed.

export const ZJobHandoff = z.object({
  workerId: z.string(),
  sandboxId: z.string().nullable(),
}) satisfies z.ZodType<JobHandoff>;

const ZWorkerPoolOccupancy = z.object({
  concurrency: z.number(),
  active: z.number(),
}) satisfies z.ZodType<WorkerPoolOccupancy>;

export const ZWorkerPools = z.partialRecord(ZStage, ZWorkerPoolOccupancy) satisfies z.ZodType<
  WorkerRecord["pools"]
>;

const ZEngineCounters = z.object({
  engine: z.string(),
  prefixCacheQueries: z.number().nullable(),
  prefixCacheHits: z.number().nullable(),
  kvCacheUsage: z.number().nullable(),
  running: z.number().nullable(),
  waiting: z.number().nullable(),
});

const ZReportedCounters = z.object({
  prefixCacheQueries: z.number(),
  prefixCacheHits: z.number(),
  kvCacheUsage: z.object({ mean: z.number(), max: z.number() }).nullable().optional(),
  engines: z.array(ZEngineCounters).optional(),
  hitRate: z.number(),
});

const ZBackendStats = z.object({
  requests: z.number(),
  errors: z.number(),
  aborted: z.number(),
  promptTokens: z.number(),
  cachedPromptTokens: z.number(),
  promptTokensWithKnownCache: z.number(),
  responseTokens: z.number(),
  prefixCacheHitRate: z.number().nullable(),
  requestsWithUnknownCachedTokens: z.number(),
  responseTokensPerSec: z.number(),
  meanLatencyMs: z.number(),
  reported: ZReportedCounters.nullable(),
});

const ZBackendView = z.object({
  id: z.string(),
  kind: z.enum(["vllm", "sglang", "nemo-rl"]),
  baseUrl: z.string(),
  modelName: z.string(),
  weightVersion: z.string().nullable(),
  maxConcurrency: z.number(),
  policyId: z.string(),
  lifecycle: z.enum(["active", "draining", "drained"]),
  circuit: z.enum(["closed", "open", "half-open"]),
  consecutiveFailures: z.number(),
  inFlight: z.number(),
  stickyJobs: z.number(),
  registeredAtMs: z.number(),
  lastHealthCheck: z.object({ atMs: z.number(), isHealthy: z.boolean() }).nullable(),
  stats: ZBackendStats,
}) satisfies z.ZodType<BackendView>;

/** A worker's view of each inference backend at its last heartbeat. */
export const ZWorkerBackends = z.array(ZBackendView) satisfies z.ZodType<WorkerRecord["backends"]>;

/** A benchmark run's configuration or a result's detail: a JSON object, or null. */
export const ZBenchmarkJsonObject = z.record(z.string(), z.unknown()).nullable() satisfies z.ZodType<
  BenchmarkRunRecord["config"]
>;

/** Test → outcome of one benchmark result, or null. */
export const ZStoredTestOutcomes = z.record(z.string(), z.string()).nullable() satisfies z.ZodType<
  BenchmarkResultRecord["failToPass"]
>;
