import { lstat, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { formatIssues, requestFailure } from "@raas/shared";
import { parse as parseToml } from "smol-toml";
import {
  type TRewardEnvManifest,
  type TRewardEnvRow,
  ZRewardEnvManifest,
  ZRewardEnvRow,
} from "./reward-env-manifest.schema";
import { type TRewardFnPayload, ZRewardFnPayload } from "./reward-fn-payload.schema";

/** The manifest every reward-function environment directory has. */
const MANIFEST = "environment.toml";
/** EVAL beyond the verifier's own limit: a fresh sandbox and the runner, in ms. */
const EVAL_SLACK_MS = 120_000;

/** A reward-function environment read from disk: one job payload per dataset row. */
export interface LoadedRewardEnvironment {
  dir: string;
  name: string;
  description: string | null;
  /** One payload per dataset line, in file order. */
  tasks: TRewardFnPayload[];
}

const invalid = (file: string, message: string) =>
  requestFailure("VALIDATION_FAILED", `${file}: ${message}`, { details: { file } });

/** Reads a regular file of the environment; a missing one or a symlink is refused by name. */
async function readEnvFile(dir: string, path: string, what: string): Promise<string> {
  const shown = join(basename(dir), path);
  const stat = await lstat(join(dir, path)).catch(() => null);
  if (stat === null) throw invalid(shown, `missing (${what})`);
  if (!stat.isFile()) throw invalid(shown, "not a regular file (a symlink or directory)");
  return readFile(join(dir, path), "utf8");
}

async function readManifest(dir: string): Promise<TRewardEnvManifest> {
  const file = join(basename(dir), MANIFEST);
  const text = await readEnvFile(dir, MANIFEST, "every reward-function environment has one");
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    throw invalid(
      file,
      `not valid TOML: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    );
  }
  const parsed = ZRewardEnvManifest.safeParse(raw);
  if (!parsed.success) throw invalid(file, formatIssues(parsed.error.issues, { root: MANIFEST }));
  return parsed.data;
}

/** The user message and system prompt of a row's `prompt` (a string, or system + one user message). */
function promptOf(row: TRewardEnvRow): { prompt: string; systemPrompt: string | undefined } {
  if (typeof row.prompt === "string") return { prompt: row.prompt, systemPrompt: undefined };
  const system = row.prompt.filter((m) => m.role === "system").map((m) => m.content);
  const user = row.prompt.find((m) => m.role === "user")?.content ?? "";
  return { prompt: user, systemPrompt: system.length > 0 ? system.join("\n\n") : undefined };
}

function payloadOf(
  row: TRewardEnvRow,
  lineNo: number,
  env: { name: string; manifest: TRewardEnvManifest; verifierSource: string },
): unknown {
  const { prompt, systemPrompt } = promptOf(row);
  const { verifier, agent } = env.manifest;
  const system = systemPrompt ?? agent.system_prompt;
  return {
    taskId: row.id !== undefined ? String(row.id) : `${env.name}-${lineNo}`,
    environment: env.name,
    prompt,
    ...(system !== undefined ? { systemPrompt: system } : {}),
    dataSource: row.data_source ?? env.name,
    groundTruth: row.ground_truth !== undefined ? row.ground_truth : row.reward_model?.ground_truth,
    extraInfo: row.extra_info ?? null,
    verifier: {
      source: env.verifierSource,
      function: verifier.function,
      timeLimitMs: Math.round(verifier.time_limit_sec * 1000),
      exceptionMeansWrong: verifier.exception_means_wrong,
    },
    ...(agent.max_turns !== undefined ? { agent: { maxTurns: agent.max_turns } } : {}),
  };
}

/**
 * Reads a Python reward-function environment: `environment.toml` (dataset file, verifier file and
 * function, time limit, `exception_means_wrong`, agent settings), the JSONL dataset (veRL's row
 * shape) and verify.py. Every row becomes a `reward-fn` payload. A missing or malformed part throws
 * a `VALIDATION_FAILED` failure naming the file, the line and the field
 * (`math-verify/data.jsonl:3: ground_truth is missing …`). Row ids must be unique.
 */
export async function loadRewardEnvironment(dir: string): Promise<LoadedRewardEnvironment> {
  const manifest = await readManifest(dir);
  const name = manifest.name ?? basename(dir);
  const verifierSource = await readEnvFile(dir, manifest.verifier.file, "the verifier");
  if (verifierSource.trim() === "") throw invalid(join(basename(dir), manifest.verifier.file), "empty");
  const datasetFile = join(basename(dir), manifest.dataset);
  const lines = (await readEnvFile(dir, manifest.dataset, "the dataset")).split("\n");
  const tasks: TRewardFnPayload[] = [];
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
    const row = ZRewardEnvRow.safeParse(raw);
    if (!row.success) throw invalid(at, formatIssues(row.error.issues, { root: "row" }));
    const payload = ZRewardFnPayload.safeParse(
      payloadOf(row.data, index + 1, { name, manifest, verifierSource }),
    );
    if (!payload.success) throw invalid(at, formatIssues(payload.error.issues, { root: "row" }));
    if (seen.has(payload.data.taskId)) throw invalid(at, `id ${payload.data.taskId} appears twice`);
    seen.add(payload.data.taskId);
    tasks.push(payload.data);
  }
  if (tasks.length === 0) throw invalid(datasetFile, "no rows");
  return { dir, name, description: manifest.description ?? null, tasks };
}

/** A `reward-fn` job's submit request: its payload and an EVAL budget above the verifier's limit. */
export interface RewardFnJobRequest {
  kind: "reward-fn";
  payload: TRewardFnPayload;
  timeoutsMs: { eval: number };
}

/** The submit request of one task of a loaded environment. */
export function rewardFnJobRequest(task: TRewardFnPayload): RewardFnJobRequest {
  return {
    kind: "reward-fn",
    payload: task,
    timeoutsMs: { eval: task.verifier.timeLimitMs + EVAL_SLACK_MS },
  };
}
