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

/** The benchmark-store procedures the CLI calls when the server has them (see the handlers README). */
interface BenchmarkProcedures {
  benchmarks: {
    createRun: { mutate(input: Record<string, unknown>): Promise<unknown> };
    recordResults: { mutate(input: { runId: string; results: unknown[] }): Promise<unknown> };
    finishRun: { mutate(input: { runId: string; status: string; finishedAtMs: number }): Promise<unknown> };
  };
}

function isMissingProcedure(error: unknown): boolean {
  return (
    error instanceof TRPCClientError &&
    (error.data?.code === "NOT_FOUND" || /No procedure found/i.test(error.message))
  );
}

/** Stores the run through `benchmarks.*`; reports (once) and carries on when the server lacks them. */
function benchmarkStore(client: RaasClient, warn: (message: string) => void) {
  const procedures = (client as unknown as BenchmarkProcedures).benchmarks;
  let isAvailable = true;
  const call = async (work: () => Promise<unknown>) => {
    if (!isAvailable) return;
    try {
      await work();
    } catch (error) {
      if (!isMissingProcedure(error)) throw error;
      isAvailable = false;
      warn("this server has no benchmarks.* procedures yet: the run is only written to files");
    }
  };
  return {
    createRun: (run: Record<string, unknown>) => call(() => procedures.createRun.mutate(run)),
    recordResults: (runId: string, results: SweBenchmarkResult[]) =>
      call(() =>
        procedures.recordResults.mutate({
          runId,
          results: results.map((result) => ({ ...result, createdAtMs: Date.now() })),
        }),
      ),
    finishRun: (runId: string, status: string) =>
      call(() => procedures.finishRun.mutate({ runId, status, finishedAtMs: Date.now() })),
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
  const runId =
    values["run-id"] ?? `${dataset}-${model.replace(/[^\w.-]+/g, "_")}-${Date.now().toString(36)}`;
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
    split: null,
    status: "running",
    config: { backend: values.backend, concurrency, maxTurns: values["max-turns"] ?? null },
    createdAtMs: Date.now(),
  });
  const gateway: SweJobGateway = {
    submit: async (requests) =>
      (await client.jobs.submitMany.mutate({ jobs: [...requests] })).results.map((r) => r.job.id),
    wait: async (ids, timeoutMs) =>
      (await client.jobs.wait.query({ ids: [...ids], timeoutMs })).jobs as TJob[],
  };
  const outcome = await runSweBenchmark({
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
    printJson({ runId, summary, errors: outcome.errors, predictions: predictionsPath, report: reportPath });
  } else {
    console.log(
      `resolved ${summary.resolved}/${summary.total} (${(summary.resolvedRate * 100).toFixed(1)} %)  ` +
        `empty patch ${summary.emptyPatch}  patch failed ${summary.failedApplyPatch}  ` +
        `test timeout ${summary.testTimeout}  errors ${summary.errors}`,
    );
    for (const [instanceId, reason] of Object.entries(outcome.errors))
      console.log(`  error ${instanceId}: ${reason}`);
    console.log(`predictions: ${predictionsPath}\nreport:      ${reportPath}`);
  }
  return 0;
}
