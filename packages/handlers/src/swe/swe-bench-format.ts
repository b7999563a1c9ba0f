import { formatIssues } from "@raas/shared";
import { z } from "zod";

/** One line of a SWE-bench predictions file. */
export const ZSwePrediction = z.looseObject({
  instance_id: z.string().min(1),
  model_name_or_path: z.string().min(1),
  model_patch: z.string().nullable(),
});
export type TSwePrediction = z.infer<typeof ZSwePrediction>;

/** Predictions JSONL (`instance_id, model_name_or_path, model_patch`), one line per report. */
export function formatPredictionsJsonl(
  model: string,
  predictions: ReadonlyArray<{ instanceId: string; modelPatch: string | null }>,
): string {
  const lines = predictions.map((prediction) =>
    JSON.stringify({
      instance_id: prediction.instanceId,
      model_name_or_path: model,
      model_patch: prediction.modelPatch,
    } satisfies TSwePrediction),
  );
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/**
 * Parses a predictions file: JSONL, or a JSON array or `{instance_id: prediction}` object as
 * SWE-bench also accepts. Errors name the line; an instance listed twice and a file mixing
 * models are rejected (a run grades one model).
 */
export function parsePredictions(text: string, source = "predictions"): TSwePrediction[] {
  const trimmed = text.trim();
  let records: Array<{ value: unknown; where: string }>;
  if (trimmed.startsWith("[") || (trimmed.startsWith("{") && !trimmed.includes("\n"))) {
    const value = parseJson(trimmed, source);
    const list = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
    records = list.map((item, index) => ({ value: item, where: `${source}[${index}]` }));
  } else {
    records = text
      .split("\n")
      .map((line, index) => ({ line, where: `${source}:${index + 1}` }))
      .filter(({ line }) => line.trim() !== "")
      .map(({ line, where }) => ({ value: parseJson(line, where), where }));
  }
  const seen = new Set<string>();
  const predictions = records.map(({ value, where }) => {
    const parsed = ZSwePrediction.safeParse(value);
    if (!parsed.success) {
      throw new Error(`${where}: ${formatIssues(parsed.error.issues, { root: "prediction" })}`);
    }
    if (seen.has(parsed.data.instance_id))
      throw new Error(`${where}: instance ${parsed.data.instance_id} is listed twice`);
    seen.add(parsed.data.instance_id);
    return parsed.data;
  });
  const models = new Set(predictions.map((prediction) => prediction.model_name_or_path));
  if (models.size > 1)
    throw new Error(`${source}: predictions of several models (${[...models].join(", ")})`);
  return predictions;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${where}: not valid JSON (${(error as Error).message})`);
  }
}
