import { lstat, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { formatIssues, requestFailure } from "@raas/shared";
import { parse as parseToml } from "smol-toml";
import type { z } from "zod";

// Reading an environment directory's files (manifest, dataset, verifier or rubric): every problem
// is a VALIDATION_FAILED failure naming the file, and the line and field where there is one.

/** A `VALIDATION_FAILED` failure `<file>: <message>`. */
export const invalidFile = (file: string, message: string) =>
  requestFailure("VALIDATION_FAILED", `${file}: ${message}`, { details: { file } });

/** Reads a regular file of the environment; a missing one or a symlink is refused by name. */
export async function readEnvFile(dir: string, path: string, what: string): Promise<string> {
  const shown = join(basename(dir), path);
  const stat = await lstat(join(dir, path)).catch(() => null);
  if (stat === null) throw invalidFile(shown, `missing (${what})`);
  if (!stat.isFile()) throw invalidFile(shown, "not a regular file (a symlink or directory)");
  return readFile(join(dir, path), "utf8");
}

/** `text`, the TOML of `file`, parsed against `schema`; issues are named from `root`. */
export function parseTomlFile<T>(file: string, text: string, schema: z.ZodType<T>, root: string): T {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    const first = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw invalidFile(file, `not valid TOML: ${first}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidFile(file, formatIssues(parsed.error.issues, { root }));
  return parsed.data;
}

/** The TOML manifest `file` of the environment in `dir`, read and parsed against `schema`. */
export async function readManifestFile<T>(
  dir: string,
  file: string,
  schema: z.ZodType<T>,
  what: string,
): Promise<T> {
  const text = await readEnvFile(dir, file, what);
  return parseTomlFile(join(basename(dir), file), text, schema, file);
}

/**
 * Each non-blank line of the JSONL dataset `dataset`, parsed as a `row`, turned into a task by
 * `toTask` (given the 1-based line number) and checked against `taskSchema`. Task ids must be
 * unique; an empty dataset is refused.
 */
export async function readDatasetTasks<TRow, TTask extends { taskId: string }>(
  dir: string,
  dataset: string,
  schemas: { row: z.ZodType<TRow>; task: z.ZodType<TTask> },
  toTask: (row: TRow, lineNo: number) => unknown,
): Promise<TTask[]> {
  const datasetFile = join(basename(dir), dataset);
  const lines = (await readEnvFile(dir, dataset, "the dataset")).split("\n");
  const tasks: TTask[] = [];
  const seen = new Set<string>();
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const at = `${datasetFile}:${index + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw invalidFile(at, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const row = schemas.row.safeParse(raw);
    if (!row.success) throw invalidFile(at, formatIssues(row.error.issues, { root: "row" }));
    const task = schemas.task.safeParse(toTask(row.data, index + 1));
    if (!task.success) throw invalidFile(at, formatIssues(task.error.issues, { root: "row" }));
    if (seen.has(task.data.taskId)) throw invalidFile(at, `id ${task.data.taskId} appears twice`);
    seen.add(task.data.taskId);
    tasks.push(task.data);
  }
  if (tasks.length === 0) throw invalidFile(datasetFile, "no rows");
  return tasks;
}
