import type { JudgeBackendRegistration } from "@raas/inference";
import { z } from "zod";

/** How long asking a judge backend for its model may take, in ms. */
const MODELS_TIMEOUT_MS = 10_000;

const ZModelList = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });

/** Collects a repeatable `--judge-backend` (each may be a comma-separated list). */
export function collectJudgeBackend(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(",").map((one) => one.trim())].filter((one) => one !== "");
}

/** The one model a server lists at `/v1/models` (vLLM and SGLang serve one each). */
async function askModelName(baseUrl: string): Promise<string> {
  const hint = `name it after #, e.g. ${baseUrl}#Qwen/Qwen3-32B`;
  let ids: string[];
  try {
    const response = await fetch(`${baseUrl}/v1/models`, { signal: AbortSignal.timeout(MODELS_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    ids = ZModelList.parse(await response.json()).data.map((model) => model.id);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `--judge-backend ${baseUrl}: could not read its model from /v1/models (${reason}); ${hint}`,
    );
  }
  const [only] = ids;
  if (only === undefined || ids.length > 1)
    throw new Error(
      `--judge-backend ${baseUrl}: /v1/models lists ${ids.length === 0 ? "no model" : `${ids.length} models`}; ${hint}`,
    );
  return only;
}

/**
 * The judge backends `--judge-backend` names: each `[vllm=|sglang=]url[#model]` as in the
 * server's `RAAS_JUDGE_BACKENDS`, an OpenAI-compatible chat server. A backend given without its
 * model is asked for it (`GET /v1/models`). A malformed entry throws, saying which and why.
 */
export async function resolveJudgeBackends(entries: readonly string[]): Promise<JudgeBackendRegistration[]> {
  const backends: JudgeBackendRegistration[] = [];
  for (const entry of entries) {
    const kindMatch = /^([a-z-]+)=(.*)$/.exec(entry);
    if (kindMatch && kindMatch[1] !== "vllm" && kindMatch[1] !== "sglang")
      throw new Error(
        `--judge-backend ${entry}: a judge backend serves /v1/chat/completions (vllm or sglang), not ${kindMatch[1]}`,
      );
    const rest = kindMatch?.[2] ?? entry;
    const hashAt = rest.indexOf("#");
    const urlText = hashAt === -1 ? rest : rest.slice(0, hashAt);
    const named = hashAt === -1 ? "" : rest.slice(hashAt + 1).trim();
    const url = URL.canParse(urlText) ? new URL(urlText) : null;
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:"))
      throw new Error(
        `--judge-backend ${entry}: expected an http(s) URL, e.g. http://judge:8000#Qwen/Qwen3-32B`,
      );
    const baseUrl = `${url.origin}${url.pathname}`.replace(/\/+$/, "");
    const id = `judge-${url.host}`;
    if (backends.some((backend) => backend.id === id))
      throw new Error(`--judge-backend ${entry}: ${url.host} is named twice`);
    const modelName = named !== "" ? named : await askModelName(baseUrl);
    backends.push({ id, baseUrl, modelName });
  }
  return backends;
}
