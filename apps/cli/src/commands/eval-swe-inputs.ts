import { readFileSync } from "node:fs";
import type { loadSweRepoSpecs, TSweInstance, TSwePrediction } from "@raas/handlers";

/** The options of `raas eval swe`, as commander gives them. */
export interface EvalSweOptions {
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

/** What the command reads before it talks to the server. */
export interface EvalSweInputs {
  /** The `--dataset` path. */
  datasetPath: string;
  instances: TSweInstance[];
  /** Set with `--predictions`: grade these patches, no rollouts. */
  predictions: TSwePrediction[] | undefined;
  specs: Awaited<ReturnType<typeof loadSweRepoSpecs>> | undefined;
  concurrency: number;
}

export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${name} needs a positive integer, got "${value}"`);
  return parsed;
}

/** Checks the options and reads the dataset, the predictions and the specs they name. */
export async function readEvalSweInputs(values: EvalSweOptions): Promise<EvalSweInputs> {
  if (!values.dataset || (values.backend === undefined) === (values.predictions === undefined)) {
    throw new Error(
      "--dataset and one of --backend or --predictions are required (see raas eval swe --help)",
    );
  }
  // Loaded here, not at the top: the handlers package costs start-up time other commands do not need.
  const { loadSweRepoSpecs, parsePredictions, parseSweJsonl } = await import("@raas/handlers");
  const instances = parseSweJsonl(readFileSync(values.dataset, "utf8"), values.dataset);
  if (instances.length === 0) throw new Error(`${values.dataset} has no instances`);
  const predictions =
    values.predictions === undefined
      ? undefined
      : parsePredictions(readFileSync(values.predictions, "utf8"), values.predictions);
  if (predictions?.length === 0) throw new Error(`${values.predictions} has no predictions`);
  const specs = values.specs === undefined ? undefined : await loadSweRepoSpecs(values.specs);
  const concurrency = positiveInt(values.concurrency, "concurrency", 8);
  return { datasetPath: values.dataset, instances, predictions, specs, concurrency };
}
