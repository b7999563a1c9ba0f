import { requestFailure, zJsonObjectWithoutNul } from "@raas/shared";
import { z } from "zod";
import type { BenchmarkRunRecord } from "../../benchmarks.port";
import { trainerProcedure } from "../../trpc";
import { ZEnvironmentName } from "../environments/environment.schema";
import { requireEnvironment, requireEnvironments } from "../environments/require-environments";
import {
  ZBenchmarkLabel,
  ZBenchmarkRunId,
  ZBenchmarkRunResponse,
  ZBenchmarkRunStatus,
  ZEpochMs,
} from "./benchmark.schema";
import { requireBenchmarks } from "./require-benchmarks";

const ZCreateBenchmarkRunRequest = z
  .object({
    id: ZBenchmarkRunId.describe("Unique run id, e.g. `swe-verified-qwen3-8b-2026-05-01`."),
    model: ZBenchmarkLabel("a model name").describe("The evaluated model, e.g. `Qwen/Qwen3-8B`."),
    dataset: ZBenchmarkLabel("a dataset name")
      .optional()
      .describe(
        "The dataset, e.g. `swe-bench-verified`. Default: the `environment`'s name (one of the two is required).",
      ),
    environment: ZEnvironmentName.optional().describe(
      "A registered environment the run evaluates on (`GET /api/v1/environments`); 404 when none has this name. Stored in `config.environment` with its kind and path.",
    ),
    split: ZBenchmarkLabel("a split name")
      .nullable()
      .default(null)
      .describe("The dataset's split, e.g. `test`. Default null."),
    status: ZBenchmarkRunStatus.default("running"),
    config: zJsonObjectWithoutNul()
      .nullable()
      .default(null)
      .describe(
        "Evaluation settings worth keeping with the run (backend, concurrency, turns). Default null.",
      ),
    createdAtMs: ZEpochMs.optional().describe("Creation time. Default: now, by the server's clock."),
  })
  .strict()
  .refine((run) => run.dataset !== undefined || run.environment !== undefined, {
    error: "dataset or environment is required",
    path: ["dataset"],
  })
  .meta({ description: "A new benchmark run." });
const ZCreateBenchmarkRunResponse = ZBenchmarkRunResponse;

function conflict(existing: BenchmarkRunRecord) {
  return requestFailure(
    "CONFLICT",
    `a benchmark run with id "${existing.id}" already exists (model ${existing.model}, dataset ${existing.dataset}); pick another id, or add results to it with benchmarks.recordResults`,
    { details: { runId: existing.id, model: existing.model, dataset: existing.dataset } },
  );
}

/** Stores a new benchmark run with no results yet; 409 when the id is taken. Trainer or admin. */
export const createRun = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/benchmarks",
      operationId: "createBenchmarkRun",
      summary:
        "Create a benchmark run (model, dataset, split, config) with no results yet: 201, or 409 when the id is taken (trainer).",
      description:
        "Stores a new run; add per-instance results with recordBenchmarkResults and end it with finishBenchmarkRun. 409 when a run with this id exists; 503 when the server has no benchmark store.",
      errors: ["CONFLICT", "UNAVAILABLE"],
      successStatus: 201,
      example: {
        id: "swe-verified-qwen3-8b-2026-05-01",
        model: "Qwen/Qwen3-8B",
        dataset: "swe-bench-verified",
        split: "test",
        config: { maxTurns: 50 },
      },
    },
  })
  .input(ZCreateBenchmarkRunRequest)
  .output(ZCreateBenchmarkRunResponse)
  .mutation(async ({ ctx, input }) => {
    const store = requireBenchmarks(ctx);
    const existing = await store.getRun(input.id);
    if (existing) throw conflict(existing);
    const { createdAtMs, environment: environmentName, ...rest } = input;
    const environment =
      environmentName === undefined
        ? null
        : await requireEnvironment(requireEnvironments(ctx), environmentName);
    const dataset = rest.dataset ?? environment?.name ?? "";
    const config = environment
      ? {
          ...rest.config,
          environment: { name: environment.name, kind: environment.kind, path: environment.path },
        }
      : rest.config;
    try {
      await store.createRun({ ...rest, dataset, config, createdAtMs: createdAtMs ?? Date.now() });
    } catch (error) {
      // Lost a race with another create of the same id: the adapter's own duplicate error.
      const raced = await store.getRun(input.id);
      if (raced) throw conflict(raced);
      throw error;
    }
    ctx.logger.info({ runId: input.id, model: input.model, dataset }, "benchmark run created");
    const run = await store.getRun(input.id);
    if (!run)
      throw requestFailure("INTERNAL", `benchmark run "${input.id}" vanished right after it was created`);
    return { run };
  });
