import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { bar } from "../output";
import { benchmarkStore } from "./benchmark-store";
import { declareEvalEnv } from "./eval-env.command";
import { type EvalSweOptions, positiveInt, readEvalSweInputs } from "./eval-swe-inputs";
import { printEvalSweOutcome } from "./eval-swe-report";
import { evalSweRunConfig, prepareEvalSweRun } from "./eval-swe-run";
import { writeSweEvalOutput } from "./swe-eval-output";
import { sweJobGateway } from "./swe-job-gateway";

/** `raas eval <benchmark> …`: SWE-bench (`swe`) and any environment (`env`). */
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
  declareEvalEnv(evaluate, context);
}

async function evalSweCommand(client: RaasClient, values: EvalSweOptions): Promise<number> {
  const inputs = await readEvalSweInputs(values);
  const { runSweBenchmark } = await import("@raas/handlers");
  const { instances, predictions, specs, concurrency } = inputs;
  const quiet = values.json;
  const log = (message: string) => {
    if (!quiet) process.stderr.write(`${message}\n`);
  };
  const { model, dataset, runId, outDir } = await prepareEvalSweRun(client, values, inputs, log);
  const store = benchmarkStore(client, log);
  await store.createRun({ id: runId, model, dataset, config: evalSweRunConfig(values, inputs) });
  const outcome = await runSweBenchmark({
    instances,
    model,
    runId,
    gateway: sweJobGateway(client),
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
  printEvalSweOutcome(
    outcome,
    { runId, isStored: store.isStored, summaryPath, predictionsPath },
    values.json === true,
  );
  return 0;
}
