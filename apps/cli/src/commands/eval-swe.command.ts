import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { SweBenchmarkResult, SweJobGateway } from "@raas/handlers";
import type { TJob } from "@raas/shared";
import { TRPCClientError } from "@trpc/client";
import type { RaasClient } from "../client";
import { bar, printJson } from "../output";

export const EVAL_SWE_HELP = `raas eval swe --dataset FILE.jsonl --backend URL [--model NAME] [--concurrency N]
              [--run-id ID] [--out DIR] [--max-turns N] [--json]
      SWE-bench evaluation through the service: registers the backend (serving --model, default the
      server's default model), runs one \`swe\` job per instance (at most N at once, default 8),
      stores a benchmark run and writes predictions.jsonl and the SWE-bench report
      (<model>.<run-id>.json) to --out (default ./swe-eval-<run-id>).
      Re-running with the same --run-id resumes: finished instances are not run again.`;

/** Results per `benchmarks.recordResults` call (the server takes at most 1000). */
const RESULTS_PER_CALL = 500;

function trpcCode(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
}

/** An older server without the `benchmarks.*` procedures, or one running without a benchmark store. */
function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  return trpcCode(error) === "UNAVAILABLE" || /No procedure found/i.test(error.message);
}

interface NewRun {
  id: string;
  model: string;
  dataset: string;
  config: Record<string, unknown>;
}

/**
 * Stores the run through `benchmarks.*`. When the server cannot store it (no such procedures, or
 * no benchmark store) it says so once and the run is only written to files. Re-using a run id
 * resumes that run when model and dataset match.
 */
function benchmarkStore(client: RaasClient, log: (message: string) => void) {
  let isStored = true;
  const call = async (work: () => Promise<unknown>) => {
    if (!isStored) return;
    try {
      await work();
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      isStored = false;
      log(
        `the server cannot store benchmark runs (${error instanceof Error ? error.message : error}); the run is only written to files`,
      );
    }
  };
  return {
    get isStored() {
      return isStored;
    },
    createRun: (run: NewRun) =>
      call(async () => {
        try {
          await client.benchmarks.createRun.mutate(run);
        } catch (error) {
          if (trpcCode(error) !== "CONFLICT") throw error;
          const { run: stored } = await client.benchmarks.get.query({ runId: run.id });
          if (stored.model !== run.model || stored.dataset !== run.dataset) {
            throw new Error(
              `run id "${run.id}" is taken by a run of ${stored.model} on ${stored.dataset}; pass another --run-id`,
            );
          }
          log(`resuming stored run ${run.id} (${stored.totalCount} results stored so far)`);
        }
      }),
    recordResults: (runId: string, results: SweBenchmarkResult[]) =>
      call(async () => {
        for (let at = 0; at < results.length; at += RESULTS_PER_CALL) {
          await client.benchmarks.recordResults.mutate({
            runId,
            results: results.slice(at, at + RESULTS_PER_CALL),
          });
        }
      }),
    finishRun: (runId: string, status: "completed" | "failed" | "cancelled") =>
      call(() => client.benchmarks.finishRun.mutate({ runId, status })),
  };
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${name} needs a positive integer, got "${value}"`);
  return parsed;
}

/** `raas eval <benchmark> …`; SWE-bench is the one benchmark so far. */
export async function evalCommand(client: RaasClient, argv: string[]): Promise<number> {
  const [benchmark, ...rest] = argv;
  if (benchmark === "swe") return evalSweCommand(client, rest);
  console.error(`unknown benchmark "${benchmark ?? ""}"\nusage: ${EVAL_SWE_HELP}`);
  return 2;
}

export async function evalSweCommand(client: RaasClient, argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: "string" },
      backend: { type: "string" },
      model: { type: "string" },
      concurrency: { type: "string" },
      "run-id": { type: "string" },
      out: { type: "string" },
      "max-turns": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.dataset || !values.backend) {
    throw new Error(`--dataset and --backend are required\nusage: ${EVAL_SWE_HELP}`);
  }
  // Loaded here, not at the top: the handlers package costs start-up time other commands do not need.
  const { parseSweJsonl, runSweBenchmark } = await import("@raas/handlers");
  const instances = parseSweJsonl(readFileSync(values.dataset, "utf8"), values.dataset);
  if (instances.length === 0) throw new Error(`${values.dataset} has no instances`);
  const concurrency = positiveInt(values.concurrency, "concurrency", 8);
  const { backend } = await client.backends.register.mutate({
    baseUrl: values.backend,
    ...(values.model !== undefined && { modelName: values.model }),
  });
  const model = backend.modelName;
  const dataset = basename(values.dataset).replace(/\.jsonl$/, "");
  // A run id is 1-200 of [A-Za-z0-9_.:@-] starting with a letter or digit (it appears in URLs).
  const idPart = (text: string) =>
    text
      .replace(/[^\w.-]+/g, "_")
      .replace(/^[^A-Za-z0-9]+/, "")
      .slice(0, 80);
  const runId =
    values["run-id"] ?? `${idPart(dataset) || "swe"}-${idPart(model) || "model"}-${Date.now().toString(36)}`;
  const outDir = resolve(values.out ?? `swe-eval-${runId}`);
  const quiet = values.json;
  const log = (message: string) => {
    if (!quiet) process.stderr.write(`${message}\n`);
  };

  log(
    `backend ${backend.id} (${values.backend}) serves ${model}; run ${runId}: ${instances.length} instances`,
  );
  const store = benchmarkStore(client, log);
  await store.createRun({
    id: runId,
    model,
    dataset,
    config: { backend: values.backend, concurrency, maxTurns: values["max-turns"] ?? null },
  });
  const gateway: SweJobGateway = {
    submit: async (requests) =>
      (await client.jobs.submitMany.mutate({ jobs: [...requests] })).results.map((r) => r.job.id),
    wait: async (ids, timeoutMs) =>
      (await client.jobs.wait.query({ ids: [...ids], timeoutMs })).jobs as TJob[],
  };
  const benchmark = runSweBenchmark({
    instances,
    model,
    runId,
    gateway,
    maxInFlight: concurrency,
    ...(values["max-turns"] !== undefined && {
      agent: { maxTurns: positiveInt(values["max-turns"], "max-turns", 50) },
    }),
    onProgress: ({ finished, total, resolved, failed }) => {
      if (!quiet)
        process.stderr.write(
          `\revaluating ${bar(finished, total)} ${finished}/${total}  resolved ${resolved}  errors ${failed}`,
        );
    },
  });
  const outcome = await benchmark.catch(async (error: unknown) => {
    await store.finishRun(runId, "failed").catch(() => {});
    throw error;
  });
  if (!quiet) process.stderr.write("\n");
  await store.recordResults(runId, outcome.results);
  await store.finishRun(runId, "completed");

  mkdirSync(outDir, { recursive: true });
  const predictionsPath = join(outDir, "predictions.jsonl");
  // SWE-bench names reports `<model>.<run_id>.json` with `/` in the model written as `__`.
  const reportPath = join(outDir, `${model.replaceAll("/", "__").replace(/[^\w.-]+/g, "_")}.${runId}.json`);
  writeFileSync(predictionsPath, outcome.predictionsJsonl);
  writeFileSync(reportPath, `${JSON.stringify(outcome.report, null, 2)}\n`);
  writeFileSync(
    join(outDir, "reports.jsonl"),
    outcome.reports.map((report) => JSON.stringify(report)).join("\n"),
  );

  const { summary } = outcome;
  if (values.json) {
    printJson({
      runId,
      stored: store.isStored,
      summary,
      errors: outcome.errors,
      predictions: predictionsPath,
      report: reportPath,
    });
  } else {
    console.log(
      `resolved ${summary.resolved}/${summary.total} (${(summary.resolvedRate * 100).toFixed(1)} %)  ` +
        `empty patch ${summary.emptyPatch}  patch failed ${summary.failedApplyPatch}  ` +
        `test timeout ${summary.testTimeout}  errors ${summary.errors}`,
    );
    for (const [instanceId, reason] of Object.entries(outcome.errors))
      console.log(`  error ${instanceId}: ${reason}`);
    console.log(`predictions: ${predictionsPath}\nreport:      ${reportPath}`);
    if (store.isStored) console.log(`stored run:  ${runId}   (GET /api/v1/benchmarks/${runId})`);
  }
  return 0;
}
