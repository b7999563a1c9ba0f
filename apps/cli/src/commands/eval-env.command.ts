import { DEFAULT_POLICY_ID } from "@raas/shared";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { bar } from "../output";
import { benchmarkStore } from "./benchmark-store";
import { type EvalEnvRun, printEvalEnvOutcome } from "./eval-env-report";
import { EvalEnvUsageError, resolveEvalEnvTarget } from "./eval-env-target";
import { positiveInt } from "./eval-swe-inputs";
import { idPart } from "./eval-swe-run";
import { sweJobGateway } from "./swe-job-gateway";

/** Exit status for an environment that is neither registered nor a directory. */
const UNKNOWN_ENVIRONMENT_EXIT_CODE = 2;

interface EvalEnvOptions {
  backend?: string;
  model?: string;
  limit?: string;
  concurrency?: string;
  runId?: string;
  json?: boolean;
}

/** `raas eval env <name|dir>`: an environment's tasks rolled out as a stored benchmark run. */
export function declareEvalEnv(evaluate: Command, context: CliContext): void {
  evaluate
    .command("env")
    .summary("an environment's tasks as a benchmark run (Harbor, reward-fn, judge)")
    .description(
      [
        "Rolls out each task of an environment once through the service and stores the run",
        "(benchmarks.*): registers --backend (serving --model, default the server's default model;",
        "without it, the service's own backends roll out), submits one job per task, waits, and",
        "records per task its reward (resolved: reward >= 1).",
        "A job that earned no reward (a sandbox, inference or verifier failure, a time-out) is",
        "recorded as an error with its reason, never as reward 0. The environment is a registered",
        "name (its directory must be readable here) or a directory. Re-running with the same",
        "--run-id resumes: finished tasks are not run again, errored ones are retried.",
      ].join(" "),
    )
    .argument("<name|dir>", "a registered environment (see raas env list) or an environment directory")
    .option(
      "--backend <url>",
      "inference backend to register and roll out against (default: the service's own)",
    )
    .option("--model <name>", "model name (default: the backend's)")
    .option("--limit <n>", "only the first N tasks (default: all)")
    .option("--concurrency <n>", "at most N jobs at once (default 8)")
    .option("--run-id <id>", "benchmark run id (default <environment>-<model>-<time>); the same id resumes")
    .option("--json", "print the outcome as JSON, no progress")
    .action(async (target: string, options: EvalEnvOptions) => {
      try {
        context.setExitCode(await evalEnvCommand(context.client(), target, options));
      } catch (error) {
        if (!(error instanceof EvalEnvUsageError)) throw error;
        process.stderr.write(`error: ${error.message}\n`);
        context.setExitCode(UNKNOWN_ENVIRONMENT_EXIT_CODE);
      }
    });
}

async function evalEnvCommand(client: RaasClient, target: string, values: EvalEnvOptions): Promise<number> {
  const limit = values.limit === undefined ? undefined : positiveInt(values.limit, "limit", 1);
  const concurrency = positiveInt(values.concurrency, "concurrency", 8);
  const quiet = values.json === true;
  const log = (message: string) => {
    if (!quiet) process.stderr.write(`${message}\n`);
  };
  const { dir, registeredName } = await resolveEvalEnvTarget(client, target);
  // Loaded here, not at the top: the handlers package costs start-up time other commands do not need.
  const { loadEnvironment, runEnvironmentBenchmark } = await import("@raas/handlers");
  const loaded = await loadEnvironment(dir);
  const tasks = loaded.tasks.slice(0, limit);
  const model = await resolveEvalEnvModel(client, values, log);
  const runId =
    values.runId ?? `${idPart(loaded.name) || "env"}-${idPart(model) || "model"}-${Date.now().toString(36)}`;
  const environment = { name: registeredName ?? loaded.name, kind: loaded.kind, dir };
  log(`run ${runId}: ${environment.name} (${loaded.kind}), ${tasks.length} of ${loaded.tasks.length} tasks`);
  const store = benchmarkStore(client, log);
  const config = { backend: values.backend ?? null, concurrency, limit: limit ?? null };
  await store.createRun({
    id: runId,
    model,
    dataset: environment.name,
    // A registered environment is named (the server stores its kind and path); a directory is described.
    ...(registeredName !== null
      ? { environment: registeredName, config }
      : { config: { ...config, environment: { name: loaded.name, kind: loaded.kind, path: dir } } }),
  });
  const outcome = await runEnvironmentBenchmark({
    environment: { name: environment.name, tasks, oracleMinReward: loaded.oracleMinReward },
    runId,
    model,
    gateway: sweJobGateway(client),
    maxInFlight: concurrency,
    onProgress: ({ finished, total, resolved, errors }) => {
      if (!quiet)
        process.stderr.write(
          `\revaluating ${bar(finished, total)} ${finished}/${total}  resolved ${resolved}  errors ${errors}`,
        );
    },
  }).catch(async (error: unknown) => {
    await store.finishRun(runId, "failed").catch(() => {});
    throw error;
  });
  if (!quiet) process.stderr.write("\n");
  await store.recordResults(runId, outcome.results);
  await store.finishRun(runId, "completed");
  const run: EvalEnvRun = { runId, model, environment, isStored: store.isStored };
  printEvalEnvOutcome(run, outcome.results, quiet);
  return 0;
}

/**
 * The model rolled out: the one `--backend` serves once registered (admin), or, without it, the
 * one the service's own active backends of the default policy serve (`--model` names it there).
 */
async function resolveEvalEnvModel(
  client: RaasClient,
  values: EvalEnvOptions,
  log: (message: string) => void,
): Promise<string> {
  if (values.backend !== undefined) {
    const { backend } = await client.backends.register.mutate({
      baseUrl: values.backend,
      ...(values.model !== undefined && { modelName: values.model }),
    });
    log(`backend ${backend.id} (${values.backend}) serves ${backend.modelName}`);
    return backend.modelName;
  }
  const { backends } = await client.backends.list.query();
  const active = backends.filter(
    (backend) => backend.lifecycle === "active" && backend.policyId === DEFAULT_POLICY_ID,
  );
  const first = active[0];
  if (first === undefined)
    throw new Error("the service has no active inference backend; pass --backend <url> to register one");
  const model = values.model ?? first.modelName;
  log(`the service's ${active.length} backend(s) roll out; model ${model}`);
  return model;
}
