import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { bar, printJson } from "../output";
import { benchmarkStore } from "./benchmark-store";
import { sweEvalCounts, writeSweEvalOutput } from "./swe-eval-output";
import { sweJobGateway } from "./swe-job-gateway";

interface EvalSweOptions {
  dataset?: string;
  backend?: string;
  predictions?: string;
  specs?: string;
  model?: string;
  concurrency?: string;
  runId?: string;
  out?: string;
  maxTurns?: string;
  json?: boolean;
}

/** `raas eval <benchmark> …`; SWE-bench is the one benchmark so far. */
export function declareEval(program: Command, context: CliContext): void {
  const evaluate = program.command("eval").description("benchmark evaluation through the service");
  evaluate
    .command("swe")
    .summary("SWE-bench evaluation, stored as a benchmark run")
    .description(
      [
        "SWE-bench evaluation through the service, stored as a benchmark run. With --backend: registers",
        "the backend (serving --model, default the server's default model) and runs one `swe` rollout",
        "per instance. With --predictions (instance_id, model_name_or_path, model_patch): grades those",
        "patches without rollouts; a .jsonl file is JSON Lines, a .json file a JSON array or an",
        "{instance_id: prediction} object (as SWE-bench), any other name is read by its content.",
        "Writes SWE-bench's files to --out: <model>.<run-id>.json (run summary),",
        "logs/run_evaluation/<run-id>/<model>/<instance_id>/report.json, predictions.jsonl.",
        "Re-running with the same --run-id resumes: graded instances are not run again, errored",
        "ones are retried.",
      ].join(" "),
    )
    .option("--dataset <file>", "SWE-bench instances, JSON Lines (required)")
    .option("--backend <url>", "inference backend to register and roll out against")
    .option("--model <name>", "model name (default: the backend's, or the predictions')")
    .option("--predictions <file>", "grade these patches instead of rolling out")
    .option("--specs <file>", "per-repo/version specs (setup commands, env, test command) sent with each job")
    .option("--concurrency <n>", "at most N jobs at once (default 8)")
    .option("--run-id <id>", "benchmark run id (default <dataset>-<model>-<time>); the same id resumes")
    .option("--out <dir>", "output directory (default ./swe-eval-<run-id>)")
    .option("--max-turns <n>", "agent turns per instance")
    .option("--json", "print the outcome as JSON, no progress")
    .action(async (options: EvalSweOptions) => {
      context.setExitCode(await evalSweCommand(context.client(), options));
    });
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${name} needs a positive integer, got "${value}"`);
  return parsed;
}

/** A run id is 1-200 of [A-Za-z0-9_.:@-] starting with a letter or digit (it appears in URLs). */
function idPart(text: string): string {
  return text
    .replace(/[^\w.-]+/g, "_")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 80);
}

async function evalSweCommand(client: RaasClient, values: EvalSweOptions): Promise<number> {
  if (!values.dataset || (values.backend === undefined) === (values.predictions === undefined)) {
    throw new Error(
      "--dataset and one of --backend or --predictions are required (see raas eval swe --help)",
    );
  }
  // Loaded here, not at the top: the handlers package costs start-up time other commands do not need.
  const { loadSweRepoSpecs, parsePredictions, parseSweJsonl, runSweBenchmark } = await import(
    "@raas/handlers"
  );
  const instances = parseSweJsonl(readFileSync(values.dataset, "utf8"), values.dataset);
  if (instances.length === 0) throw new Error(`${values.dataset} has no instances`);
  const predictions =
    values.predictions === undefined
      ? undefined
      : parsePredictions(readFileSync(values.predictions, "utf8"), values.predictions);
  if (predictions?.length === 0) throw new Error(`${values.predictions} has no predictions`);
  const specs = values.specs === undefined ? undefined : await loadSweRepoSpecs(values.specs);
  const concurrency = positiveInt(values.concurrency, "concurrency", 8);
  const quiet = values.json;
  const log = (message: string) => {
    if (!quiet) process.stderr.write(`${message}\n`);
  };

  let model: string;
  if (predictions) {
    model = values.model ?? (predictions[0]?.model_name_or_path as string);
    log(`grading ${predictions.length} predictions of ${model}`);
  } else {
    const { backend } = await client.backends.register.mutate({
      baseUrl: values.backend as string,
      ...(values.model !== undefined && { modelName: values.model }),
    });
    model = backend.modelName;
    log(`backend ${backend.id} (${values.backend}) serves ${model}`);
  }
  const dataset = basename(values.dataset).replace(/\.jsonl$/, "");
  const runId =
    values.runId ?? `${idPart(dataset) || "swe"}-${idPart(model) || "model"}-${Date.now().toString(36)}`;
  const outDir = resolve(values.out ?? `swe-eval-${runId}`);
  log(`run ${runId}: ${instances.length} instances`);

  const store = benchmarkStore(client, log);
  await store.createRun({
    id: runId,
    model,
    dataset,
    config: predictions
      ? { predictions: values.predictions, concurrency, specs: values.specs ?? null }
      : {
          backend: values.backend,
          concurrency,
          maxTurns: values.maxTurns ?? null,
          specs: values.specs ?? null,
        },
  });
  const gateway = sweJobGateway(client);
  const outcome = await runSweBenchmark({
    instances,
    model,
    runId,
    gateway,
    maxInFlight: concurrency,
    ...(predictions !== undefined && { predictions }),
    ...(specs !== undefined && { specs }),
    ...(values.maxTurns !== undefined && {
      agent: { maxTurns: positiveInt(values.maxTurns, "max-turns", 50) },
    }),
    onProgress: ({ finished, total, resolved, failed }) => {
      if (!quiet)
        process.stderr.write(
          `\revaluating ${bar(finished, total)} ${finished}/${total}  resolved ${resolved}  errors ${failed}`,
        );
    },
  }).catch(async (error: unknown) => {
    await store.finishRun(runId, "failed").catch(() => {});
    throw error;
  });
  if (!quiet) process.stderr.write("\n");
  await store.recordResults(runId, outcome.results);
  await store.finishRun(runId, "completed");

  const { summaryPath, predictionsPath } = await writeSweEvalOutput({ outDir, runId, model, outcome });
  const counts = sweEvalCounts(outcome);
  if (values.json) {
    printJson({
      runId,
      stored: store.isStored,
      summary: counts,
      errors: outcome.errors,
      predictions: predictionsPath,
      report: summaryPath,
    });
  } else {
    console.log(
      `resolved ${counts.resolved}/${counts.total} (${(counts.resolvedRate * 100).toFixed(1)} %)  ` +
        `unresolved ${counts.unresolved}  empty patch ${counts.emptyPatch}  errors ${counts.errors}`,
    );
    for (const [instanceId, reason] of Object.entries(outcome.errors))
      console.log(`  error ${instanceId}: ${reason}`);
    console.log(`predictions: ${predictionsPath}\nreport:      ${summaryPath}`);
    if (store.isStored) console.log(`stored run:  ${runId}   (GET /api/v1/benchmarks/${runId})`);
  }
  return 0;
}
