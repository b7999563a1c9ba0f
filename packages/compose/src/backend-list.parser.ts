import { hasUrlUserinfo, redactUrlUserinfo, URL_USERINFO_MESSAGE } from "@raas/shared";

/** Wire protocols `RAAS_BACKENDS` entries may name. */
const BACKEND_LIST_KINDS = ["vllm", "sglang", "nemo-rl"] as const;
type TBackendListKind = (typeof BACKEND_LIST_KINDS)[number];

/** One backend named in `RAAS_BACKENDS`, registered when the server starts. */
export interface BackendSeed {
  kind: TBackendListKind;
  /** Base URL without trailing slash, e.g. `http://gpu-3:8000`. */
  baseUrl: string;
  /** Served model name; null means the server's default model (`RAAS_MODEL`). */
  modelName: string | null;
}

/**
 * Parses `RAAS_BACKENDS`: comma-separated entries `[kind=]url[#model]`, e.g.
 * `vllm=http://gpu-1:8000,sglang=http://gpu-2:30000#Qwen/Qwen3-8B,http://gpu-3:8000`.
 * The kind defaults to `vllm` (also what the simulator speaks); the model after `#` defaults to
 * the server's default model. A URL with `user:password@` is refused (backend URLs are shown to
 * readers and logged). Returns the seeds, or the problems as sentences (credentials hidden).
 */
export function parseBackendList(text: string): { seeds: BackendSeed[]; problems: string[] } {
  const seeds: BackendSeed[] = [];
  const problems: string[] = [];
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  for (const entry of entries) {
    const kindMatch = /^([a-z-]+)=(.*)$/i.exec(entry);
    const kind = (kindMatch?.[1]?.toLowerCase() ?? "vllm") as TBackendListKind;
    const rest = kindMatch?.[2] ?? entry;
    if (!BACKEND_LIST_KINDS.includes(kind)) {
      problems.push(`"${entry}": unknown kind "${kind}", expected one of ${BACKEND_LIST_KINDS.join(", ")}`);
      continue;
    }
    const hashAt = rest.indexOf("#");
    const urlText = (hashAt === -1 ? rest : rest.slice(0, hashAt)).trim();
    const modelText = hashAt === -1 ? "" : rest.slice(hashAt + 1).trim();
    if (!/^https?:\/\/[^/?#\s]+/i.test(urlText) || !URL.canParse(urlText) || /[?]/.test(urlText)) {
      problems.push(`"${entry}": expected [kind=]http(s)://host:port[#model], e.g. vllm=http://gpu-1:8000`);
      continue;
    }
    if (hasUrlUserinfo(urlText)) {
      problems.push(`"${redactUrlUserinfo(entry)}": ${URL_USERINFO_MESSAGE}`);
      continue;
    }
    if (hashAt !== -1 && modelText.length === 0) {
      problems.push(`"${entry}": the model name after # is empty`);
      continue;
    }
    seeds.push({ kind, baseUrl: urlText.replace(/\/+$/, ""), modelName: modelText || null });
  }
  return { seeds, problems };
}

/** The id a backend gets when none is given: its URL's `host:port` (the API uses the same rule). */
export function defaultBackendId(baseUrl: string): string {
  return new URL(baseUrl).host;
}
