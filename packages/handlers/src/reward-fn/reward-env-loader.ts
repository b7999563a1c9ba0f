import { basename, join } from "node:path";
import { invalidFile, readDatasetTasks, readEnvFile, readManifestFile } from "../base/environment-files";
import { manifestTools } from "../base/environment-mcp";
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
  env: { name: string; manifest: TRewardEnvManifest; verifierSource: string; mcp: unknown },
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
    ...(env.mcp !== undefined ? { mcp: env.mcp } : {}),
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
  const manifest = await readManifestFile(
    dir,
    MANIFEST,
    ZRewardEnvManifest,
    "every reward-function environment has one",
  );
  const name = manifest.name ?? basename(dir);
  const verifierSource = await readEnvFile(dir, manifest.verifier.file, "the verifier");
  if (verifierSource.trim() === "") throw invalidFile(join(basename(dir), manifest.verifier.file), "empty");
  const mcp = await manifestTools(dir, MANIFEST, manifest.mcp);
  const tasks = await readDatasetTasks(
    dir,
    manifest.dataset,
    { row: ZRewardEnvRow, task: ZRewardFnPayload },
    (row, lineNo) => payloadOf(row, lineNo, { name, manifest, verifierSource, mcp }),
  );
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
