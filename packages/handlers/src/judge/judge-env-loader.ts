import { basename, join } from "node:path";
import { invalidFile, readDatasetTasks, readEnvFile, readManifestFile } from "../base/environment-files";
import { manifestTools } from "../base/environment-mcp";
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
/** Where a reference answer's score must reach without a `pass_score`: this share of the scale. */
const DEFAULT_PASS_SHARE = 0.8;

/** A judge environment read from disk: one job payload per dataset row. */
export interface LoadedJudgeEnvironment {
  dir: string;
  name: string;
  description: string | null;
  tasks: TJudgePayload[];
  /**
   * The reward (on [0, 1]) a reference answer must earn in the oracle check: `pass_score` mapped
   * onto [0, 1] as the judge's scores are, else 0.8.
   */
  passReward: number;
}

function payloadOf(
  row: TJudgeEnvRow,
  lineNo: number,
  env: { name: string; manifest: TJudgeEnvManifest; rubric: string; mcp: unknown },
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
    ...(env.mcp !== undefined ? { mcp: env.mcp } : {}),
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
  const manifest = await readManifestFile(
    dir,
    MANIFEST,
    ZJudgeEnvManifest,
    "every judge environment has one",
  );
  const name = manifest.name ?? basename(dir);
  const rubric = await readEnvFile(dir, manifest.judge.rubric_file, "the rubric");
  if (rubric.trim() === "") throw invalidFile(join(basename(dir), manifest.judge.rubric_file), "empty");
  const mcp = await manifestTools(dir, MANIFEST, manifest.mcp);
  const tasks = await readDatasetTasks(
    dir,
    manifest.dataset,
    { row: ZJudgeEnvRow, task: ZJudgePayload },
    (row, lineNo) => payloadOf(row, lineNo, { name, manifest, rubric, mcp }),
  );
  const { score_min: min, score_max: max, pass_score: passScore } = manifest.judge;
  const passReward = passScore === undefined ? DEFAULT_PASS_SHARE : (passScore - min) / (max - min);
  return { dir, name, description: manifest.description ?? null, tasks, passReward };
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
