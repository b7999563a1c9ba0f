import { basename, resolve } from "node:path";
import type { RaasClient } from "../client";
import type { EvalSweInputs, EvalSweOptions } from "./eval-swe-inputs";

/** The benchmark run the command stores and writes. */
export interface EvalSweRun {
  model: string;
  /** The dataset's file name without `.jsonl`. */
  dataset: string;
  runId: string;
  outDir: string;
}

/** A run id is 1-200 of [A-Za-z0-9_.:@-] starting with a letter or digit (it appears in URLs). */
export function idPart(text: string): string {
  return text
    .replace(/[^\w.-]+/g, "_")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 80);
}

/**
 * The model graded or rolled out: the predictions' (or --model), or the one the registered
 * --backend serves; then the run id and the output directory.
 */
export async function prepareEvalSweRun(
  client: RaasClient,
  values: EvalSweOptions,
  inputs: EvalSweInputs,
  log: (message: string) => void,
): Promise<EvalSweRun> {
  const model = await resolveEvalSweModel(client, values, inputs, log);
  const dataset = basename(inputs.datasetPath).replace(/\.jsonl$/, "");
  const runId =
    values.runId ?? `${idPart(dataset) || "swe"}-${idPart(model) || "model"}-${Date.now().toString(36)}`;
  const outDir = resolve(values.out ?? `swe-eval-${runId}`);
  log(`run ${runId}: ${inputs.instances.length} instances`);
  return { model, dataset, runId, outDir };
}

async function resolveEvalSweModel(
  client: RaasClient,
  values: EvalSweOptions,
  { predictions }: EvalSweInputs,
  log: (message: string) => void,
): Promise<string> {
  if (predictions) {
    const model = values.model ?? (predictions[0]?.model_name_or_path as string);
    log(`grading ${predictions.length} predictions of ${model}`);
    return model;
  }
  const { backend } = await client.backends.register.mutate({
    baseUrl: values.backend as string,
    ...(values.model !== undefined && { modelName: values.model }),
  });
  log(`backend ${backend.id} (${values.backend}) serves ${backend.modelName}`);
  return backend.modelName;
}

/** What the stored run says it was run with. */
export function evalSweRunConfig(values: EvalSweOptions, inputs: EvalSweInputs): Record<string, unknown> {
  const { concurrency } = inputs;
  return inputs.predictions
    ? { predictions: values.predictions, concurrency, specs: values.specs ?? null }
    : {
        backend: values.backend,
        concurrency,
        maxTurns: values.maxTurns ?? null,
        specs: values.specs ?? null,
      };
}
