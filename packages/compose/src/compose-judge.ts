import type { EngineLogger } from "@raas/engine";
import { JudgeBackendPool, type JudgeBackendRegistration } from "@raas/inference";
import { type BackendSeed, defaultBackendId, parseBackendList } from "./backend-list.parser";

/** Judge backends (`RAAS_JUDGE_BACKENDS`): servers of the judge model, never the policy's. */
export interface JudgeConfig {
  backends: JudgeBackendRegistration[];
}

/**
 * Parses `RAAS_JUDGE_BACKENDS`: comma-separated `[kind=]url#model`, as `RAAS_BACKENDS` but with
 * the model always named (it is stored with every grade) and only servers of OpenAI-compatible
 * chat completions (`vllm`, `sglang`). Returns the registrations, or the problems as sentences.
 */
export function parseJudgeBackendList(text: string): {
  backends: JudgeBackendRegistration[];
  problems: string[];
} {
  const { seeds, problems } = parseBackendList(text);
  const backends: JudgeBackendRegistration[] = [];
  for (const seed of seeds) {
    const problem = problemOf(seed);
    if (problem !== null) problems.push(`"${seed.baseUrl}": ${problem}`);
    else
      backends.push({
        id: defaultBackendId(seed.baseUrl),
        baseUrl: seed.baseUrl,
        modelName: seed.modelName ?? "",
      });
  }
  const ids = backends.map((backend) => backend.id);
  for (const [index, id] of ids.entries()) {
    if (ids.indexOf(id) !== index) problems.push(`"${id}" is named twice`);
  }
  return { backends, problems };
}

function problemOf(seed: BackendSeed): string | null {
  if (seed.kind === "nemo-rl")
    return "a judge backend serves /v1/chat/completions (vllm or sglang), not nemo-rl";
  if (seed.modelName === null)
    return "a judge backend names its model after #, e.g. http://judge:8000#Qwen/Qwen3-32B";
  return null;
}

/**
 * The judge's pool: its own backends and HTTP client, apart from the policy's routed pool (a
 * policy turn can never reach a judge, nor a judge call a policy backend). Null without backends.
 */
export function composeJudge(config: JudgeConfig | undefined, logger: EngineLogger): JudgeBackendPool | null {
  if (!config || config.backends.length === 0) return null;
  const pool = new JudgeBackendPool({ backends: config.backends });
  for (const backend of config.backends) {
    logger.info(
      { backendId: backend.id, baseUrl: backend.baseUrl, modelName: backend.modelName },
      "judge backend registered from configuration",
    );
  }
  return pool;
}
