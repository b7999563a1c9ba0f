import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { RaasClient } from "../client";
import { bar, printJson } from "../output";
import { benchmarkStore } from "./benchmark-store";
import { sweEvalCounts, writeSweEvalOutput } from "./swe-eval-output";
import { sweJobGateway } from "./swe-job-gateway";

export const EVAL_SWE_HELP = `raas eval swe --dataset FILE.jsonl (--backend URL [--model NAME] | --predictions FILE)
              [--specs FILE.json] [--concurrency N] [--run-id ID] [--out DIR] [--max-turns N] [--json]
      SWE-bench evaluation through the service, stored as a benchmark run. With --backend: registers
      the backend (serving --model, default the server's default model) and runs one \`swe\` rollout
      per instance. With --predictions (instance_id, model_name_or_path, model_patch): grades those
      patches without rollouts; a .jsonl file is JSON Lines, a .json file a JSON array or an
      {instance_id: prediction} object (as SWE-bench), any other name is read by its content.
      --specs: per-repo/version specs (setup commands, env, test command) sent with each job.
      At most N jobs at once (default 8). Writes SWE-bench's files to --out (default
      ./swe-eval-<run-id>): <model>.<run-id>.json (run summary),
      logs/run_evaluation/<run-id>/<model>/<instance_id>/report.json, predictions.jsonl.
      Re-running with the same --run-id resumes: graded instances are not run again, errored
      ones are retried.`;

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
      predictions: { type: "string" },
      specs: { type: "string" },
      model: { type: "string" },
      concurrency: { type: "string" },
      "run-id": { type: "string" },
      out: { type: "string" },
      "max-turns": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.dataset || (values.backend === undefined) === (values.predictions === undefined)) {
    throw new Error(`--dataset and one of --backend or --predictions are required\nusage: ${EVAL_SWE_HELP}`);
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
    values["run-id"] ?? `${idPart(dataset) || "swe"}-${idPart(model) || "model"}-${Date.now().toString(36)}`;
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
          maxTurns: values["max-turns"] ?? null,
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
    ...(values["max-turns"] !== undefined && {
      agent: { maxTurns: positiveInt(values["max-turns"], "max-turns", 50) },
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
