import { lstat, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { formatIssues, requestFailure } from "@raas/shared";
import { parse as parseToml } from "smol-toml";
import {
  type TJudgeEnvManifest,
  type TJudgeEnvRow,
  ZJudgeEnvManifest,
  ZJudgeEnvRow,
} from "./judge-env-manifest.schema";
import { type TJudgePayload, ZJudgePayload } from "./judge-payload.schema";

const MANIFEST = "environment.toml";
/** EVAL beyond the judge call's own limit, in ms. */
const EVAL_SLACK_MS = 30_000;

/** A judge environment read from disk: one job payload per dataset row. */
export interface LoadedJudgeEnvironment {
  dir: string;
  name: string;
  description: string | null;
  tasks: TJudgePayload[];
}

const invalid = (file: string, message: string) =>
  requestFailure("VALIDATION_FAILED", `${file}: ${message}`, { details: { file } });

async function readEnvFile(dir: string, path: string, what: string): Promise<string> {
  const shown = join(basename(dir), path);
  const stat = await lstat(join(dir, path)).catch(() => null);
  if (stat === null) throw invalid(shown, `missing (${what})`);
  if (!stat.isFile()) throw invalid(shown, "not a regular file (a symlink or directory)");
  return readFile(join(dir, path), "utf8");
}

async function readManifest(dir: string): Promise<TJudgeEnvManifest> {
  const file = join(basename(dir), MANIFEST);
  const text = await readEnvFile(dir, MANIFEST, "every judge environment has one");
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    const first = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw invalid(file, `not valid TOML: ${first}`);
  }
  const parsed = ZJudgeEnvManifest.safeParse(raw);
  if (!parsed.success) throw invalid(file, formatIssues(parsed.error.issues, { root: MANIFEST }));
  return parsed.data;
}

function payloadOf(
  row: TJudgeEnvRow,
  lineNo: number,
  env: { name: string; manifest: TJudgeEnvManifest; rubric: string },
): unknown {
  const { judge, agent } = env.manifest;
  const rubric = row.rubric
    ? `${env.rubric.trim()}\n\nFor this task also:\n${row.rubric}`
    : env.rubric.trim();
  return {
    taskId: row.id !== undefined ? String(row.id) : `${env.name}-${lineNo}`,
    environment: env.name,
    prompt: row.prompt,
    ...(agent.system_prompt !== undefined ? { systemPrompt: agent.system_prompt } : {}),
    judge: {
      rubric,
      scale: { min: judge.score_min, max: judge.score_max },
      reference: row.reference ?? null,
      maxTokens: judge.max_tokens,
      temperature: judge.temperature,
      timeoutMs: Math.round(judge.timeout_sec * 1000),
    },
    ...(agent.max_turns !== undefined ? { agent: { maxTurns: agent.max_turns } } : {}),
  };
}

/**
 * Reads a judge environment: `environment.toml` (dataset, rubric file, score range, the judge's
 * token budget, temperature and time limit, agent settings), the rubric and the JSONL dataset
 * (`prompt`, optional `rubric` points of the row's own, `reference`, `id`). Every row becomes a
 * `judge` payload. A missing or malformed part throws a `VALIDATION_FAILED` failure naming the
 * file, the line and the field. Row ids must be unique.
 */
export async function loadJudgeEnvironment(dir: string): Promise<LoadedJudgeEnvironment> {
  const manifest = await readManifest(dir);
  const name = manifest.name ?? basename(dir);
  const rubric = await readEnvFile(dir, manifest.judge.rubric_file, "the rubric");
  if (rubric.trim() === "") throw invalid(join(basename(dir), manifest.judge.rubric_file), "empty");
  const datasetFile = join(basename(dir), manifest.dataset);
  const lines = (await readEnvFile(dir, manifest.dataset, "the dataset")).split("\n");
  const tasks: TJudgePayload[] = [];
  const seen = new Set<string>();
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const at = `${datasetFile}:${index + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw invalid(at, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const row = ZJudgeEnvRow.safeParse(raw);
    if (!row.success) throw invalid(at, formatIssues(row.error.issues, { root: "row" }));
    const payload = ZJudgePayload.safeParse(payloadOf(row.data, index + 1, { name, manifest, rubric }));
    if (!payload.success) throw invalid(at, formatIssues(payload.error.issues, { root: "row" }));
    if (seen.has(payload.data.taskId)) throw invalid(at, `id ${payload.data.taskId} appears twice`);
    seen.add(payload.data.taskId);
    tasks.push(payload.data);
  }
  if (tasks.length === 0) throw invalid(datasetFile, "no rows");
  return { dir, name, description: manifest.description ?? null, tasks };
}

/** A `judge` job's submit request: its payload and an EVAL budget above the judge's time limit. */
export interface JudgeJobRequest {
  kind: "judge";
  payload: TJudgePayload;
  timeoutsMs: { eval: number };
}

/** The submit request of one task of a loaded judge environment. */
export function judgeJobRequest(task: TJudgePayload): JudgeJobRequest {
  return { kind: "judge", payload: task, timeoutsMs: { eval: task.judge.timeoutMs + EVAL_SLACK_MS } };
}
