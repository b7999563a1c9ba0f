import { formatIssues, requestFailure } from "@raas/shared";
import { z } from "zod";

/** One line of a SWE-bench predictions file. */
const ZSwePrediction = z.looseObject({
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

/** How a predictions file is laid out: a JSON document, or JSON Lines (one prediction a line). */
export type TPredictionsFormat = "json" | "jsonl";

/**
 * The layout a file name promises, as SWE-bench decides it: `.jsonl` is JSON Lines, `.json` a JSON
 * document; any other name promises nothing (`undefined`) and the content decides.
 */
export function predictionsFormatOf(fileName: string): TPredictionsFormat | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".jsonl")) return "jsonl";
  if (lower.endsWith(".json")) return "json";
  return undefined;
}

/**
 * Parses a predictions file. Its layout comes from `format`, by default from `source`'s extension
 * as SWE-bench does: `.jsonl` is always JSON Lines (so a one-line file is one prediction, never an
 * object map), `.json` holds a JSON array of predictions or an `{instance_id: prediction}` object.
 * For any other name the content decides where it can: a document that parses as a whole is JSON
 * (an array, a map whose values are all objects, or one bare prediction), anything else is read as
 * JSON Lines; a lone object that is neither a map nor a prediction is refused with a sentence saying
 * to name the file `.json` or `.jsonl`. Errors name the line or entry; an instance listed twice and
 * a file mixing models are rejected (a run grades one model).
 * @throws a request failure `VALIDATION_FAILED` for every malformed file.
 */
export function parsePredictions(
  text: string,
  source = "predictions",
  format: TPredictionsFormat | undefined = predictionsFormatOf(source),
): TSwePrediction[] {
  const records = format === "jsonl" ? jsonLinesRecords(text, source) : documentRecords(text, source, format);
  const seen = new Set<string>();
  const predictions = records.map(({ value, where, key }) => {
    const parsed = ZSwePrediction.safeParse(value);
    if (!parsed.success) invalid(`${where}: ${formatIssues(parsed.error.issues, { root: "prediction" })}`);
    if (key !== undefined && key !== parsed.data.instance_id)
      invalid(`${where}: keyed ${JSON.stringify(key)} but its instance_id is ${parsed.data.instance_id}`);
    if (seen.has(parsed.data.instance_id))
      invalid(`${where}: instance ${parsed.data.instance_id} is listed twice`);
    seen.add(parsed.data.instance_id);
    return parsed.data;
  });
  const models = new Set(predictions.map((prediction) => prediction.model_name_or_path));
  if (models.size > 1) invalid(`${source}: predictions of several models (${[...models].join(", ")})`);
  return predictions;
}

/** One candidate prediction with where it came from; `key` is its map key in the object form. */
interface PredictionRecord {
  value: unknown;
  where: string;
  key?: string;
}

function jsonLinesRecords(text: string, source: string): PredictionRecord[] {
  return text
    .split("\n")
    .map((line, index) => ({ line, where: `${source}:${index + 1}` }))
    .filter(({ line }) => line.trim() !== "")
    .map(({ line, where }) => ({ value: parseJson(line, where), where }));
}

/**
 * A `.json` file (`format` "json") must parse as a whole; a file of unknown layout that does not is
 * read as JSON Lines, which names the first bad line.
 */
function documentRecords(text: string, source: string, format: "json" | undefined): PredictionRecord[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (format === "json") invalid(`${source}: not valid JSON (${(error as Error).message})`);
    return jsonLinesRecords(text, source);
  }
  if (Array.isArray(value))
    return value.map((item, index) => ({ value: item, where: `${source}[${index}]` }));
  if (!isPlainObject(value))
    invalid(`${source}: expected a JSON array of predictions or an {instance_id: prediction} object`);
  const entries = Object.entries(value);
  if (entries.every(([, item]) => isPlainObject(item)))
    return entries.map(([key, item]) => ({ value: item, where: `${source}[${JSON.stringify(key)}]`, key }));
  const looksLikePrediction = "instance_id" in value;
  if (format === "json")
    invalid(
      looksLikePrediction
        ? `${source}: a .json predictions file holds a JSON array or an {instance_id: prediction} object, not one bare prediction; JSON Lines files end in .jsonl`
        : `${source}: expected a JSON array of predictions or an {instance_id: prediction} object whose values are all objects`,
    );
  if (looksLikePrediction) return [{ value, where: `${source}:1` }];
  invalid(
    `${source}: one JSON object that is neither a prediction nor an {instance_id: prediction} map; name the file .jsonl (one prediction a line) or .json (an array or such a map)`,
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): never {
  throw requestFailure("VALIDATION_FAILED", message);
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    invalid(`${where}: not valid JSON (${(error as Error).message})`);
  }
}
