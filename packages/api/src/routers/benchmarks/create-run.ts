import { RaasError } from "@raas/shared";
import { z } from "zod";
import type { BenchmarkRunRecord } from "../../benchmarks.port";
import { trainerProcedure } from "../../trpc";
import {
  ZBenchmarkLabel,
  ZBenchmarkRunId,
  ZBenchmarkRunResponse,
  ZBenchmarkRunStatus,
  ZEpochMs,
} from "./benchmark.schema";
import { requireBenchmarks } from "./require-benchmarks";

export const ZCreateBenchmarkRunRequest = z
  .object({
    /** Unique run id, e.g. `swe-verified-qwen3-8b-2026-05-01`. */
    id: ZBenchmarkRunId,
    /** The evaluated model, e.g. `Qwen/Qwen3-8B`. */
    model: ZBenchmarkLabel("a model name"),
    /** The dataset, e.g. `swe-bench-verified`. */
    dataset: ZBenchmarkLabel("a dataset name"),
    /** The dataset's split, e.g. `test`. Default null. */
    split: ZBenchmarkLabel("a split name").nullable().default(null),
    /** Default `running`. */
    status: ZBenchmarkRunStatus.default("running"),
    /** Evaluation settings worth keeping with the run (backend, concurrency, turns). Default null. */
    config: z.record(z.string(), z.unknown()).nullable().default(null),
    /** Default: now, by the server's clock. */
    createdAtMs: ZEpochMs.optional(),
  })
  .strict();
export const ZCreateBenchmarkRunResponse = ZBenchmarkRunResponse;

function conflict(existing: BenchmarkRunRecord): RaasError {
  return new RaasError(
    "CONFLICT",
    `a benchmark run with id "${existing.id}" already exists (model ${existing.model}, dataset ${existing.dataset}); pick another id, or add results to it with benchmarks.recordResults`,
    { details: { runId: existing.id, model: existing.model, dataset: existing.dataset } },
  );
}

/** Stores a new benchmark run with no results yet; 409 when the id is taken. Trainer or admin. */
export const createRun = trainerProcedure
  .input(ZCreateBenchmarkRunRequest)
  .output(ZCreateBenchmarkRunResponse)
  .mutation(async ({ ctx, input }) => {
    const store = requireBenchmarks(ctx);
    const existing = await store.getRun(input.id);
    if (existing) throw conflict(existing);
    const { createdAtMs, ...rest } = input;
    try {
      await store.createRun({ ...rest, createdAtMs: createdAtMs ?? Date.now() });
    } catch (error) {
      // Lost a race with another create of the same id: the adapter's own duplicate error.
      const raced = await store.getRun(input.id);
      if (raced) throw conflict(raced);
      throw error;
    }
    ctx.logger.info({ runId: input.id, model: input.model, dataset: input.dataset }, "benchmark run created");
    const run = await store.getRun(input.id);
    if (!run)
      throw new RaasError("INTERNAL", `benchmark run "${input.id}" vanished right after it was created`);
    return { run };
  });
