import type { InferenceBackendKind } from "@raas/engine";
import { hasUrlUserinfo, URL_USERINFO_MESSAGE } from "@raas/shared";
import { z } from "zod";

/** Wire protocols of inference backends (the engine's `InferenceBackendKind`). */
export const BACKEND_KINDS = ["vllm", "sglang", "nemo-rl"] as const satisfies readonly InferenceBackendKind[];
export const ZBackendKind = z
  .enum(BACKEND_KINDS, { error: `kind must be one of ${BACKEND_KINDS.join(", ")}` })
  .meta({
    id: "BackendKind",
    description:
      "Wire protocol: `vllm` (OpenAI-compatible `/v1/completions` with token ids; also the simulator), `sglang` (`/generate` with `input_ids`), `nemo-rl` (`/generate` with `prompt_ids`).",
  });

/** A backend id: letters, digits and `_ . : @ -`, at most 128 characters, e.g. `gpu-3:8000`. */
export const ZBackendId = z
  .string({ error: "expected a backend id (string)" })
  .trim()
  .regex(/^[A-Za-z0-9][\w.:@-]{0,127}$/, {
    error: "a backend id is 1-128 letters, digits or _ . : @ - and starts with a letter or digit",
  })
  .describe(
    "A backend id: 1-128 letters, digits or `_ . : @ -`, starting with a letter or digit (e.g. `gpu-3:8000`).",
  );

const URL_EXAMPLE = "expected an http:// or https:// URL such as http://gpu-3:8000";

/** `http(s)://host[:port][/path]` without `user:password@`, trailing slashes removed; one issue per bad URL. */
export const ZBackendBaseUrl = z
  .string({ error: "expected a URL string such as http://gpu-3:8000" })
  .trim()
  .max(2_048, { error: "the URL is longer than 2048 characters" })
  .superRefine((url, ctx) => {
    if (!/^https?:\/\/[^/?#\s]+/i.test(url) || !URL.canParse(url)) {
      ctx.addIssue({ code: "custom", message: URL_EXAMPLE });
    } else if (/[?#]/.test(url)) {
      ctx.addIssue({ code: "custom", message: "the base URL may not carry a query or fragment" });
    } else if (hasUrlUserinfo(url)) {
      ctx.addIssue({ code: "custom", message: URL_USERINFO_MESSAGE });
    }
  })
  .transform((url) => url.replace(/\/+$/, ""));

/** A weight version label (e.g. a training step `step-120`); null when unknown. */
export const ZWeightVersion = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .nullable()
  .describe("A weight version label (e.g. the training step `step-120`); null when unknown.");

const ZBackendStats = z.object({
  requests: z.number(),
  errors: z.number(),
  aborted: z.number(),
  promptTokens: z.number(),
  cachedPromptTokens: z.number(),
  responseTokens: z.number(),
  /**
   * cachedPromptTokens / prompt tokens over successful requests whose cached count the backend
   * reported, 0..1; null while none did.
   */
  prefixCacheHitRate: z.number().nullable(),
  /** Successful requests whose cached-token count the backend did not report. */
  requestsWithUnknownCachedTokens: z.number().int(),
  responseTokensPerSec: z.number(),
  meanLatencyMs: z.number(),
  /**
   * The backend's own figures (vLLM `/metrics`), when it exposes them: prefix-cache counters
   * summed over its data-parallel engines, KV-cache usage as mean and max over engines, and the
   * same per engine.
   */
  reported: z
    .object({
      prefixCacheQueries: z.number(),
      prefixCacheHits: z.number(),
      hitRate: z.number(),
      kvCacheUsage: z.object({ mean: z.number(), max: z.number() }).nullable().optional(),
      engines: z
        .array(
          z.object({
            engine: z.string(),
            prefixCacheQueries: z.number().nullable(),
            prefixCacheHits: z.number().nullable(),
            kvCacheUsage: z.number().nullable(),
            running: z.number().nullable(),
            waiting: z.number().nullable(),
          }),
        )
        .optional(),
    })
    .nullable(),
});

/** One registered backend with its routing state and statistics. */
export const ZBackendView = z
  .object({
    id: z.string().describe("The backend's id."),
    kind: ZBackendKind,
    baseUrl: z.string().describe("Base URL requests go to."),
    modelName: z.string().describe("Served model name (sent as `model`)."),
    weightVersion: z.string().nullable().describe("Weight version it serves, or null when unknown."),
    maxConcurrency: z.number().int().describe("Requests it runs at once."),
    lifecycle: z
      .enum(["active", "draining", "drained"])
      .describe("`draining` finishes in-flight turns and takes no new jobs; `drained` has none left."),
    circuit: z
      .enum(["closed", "open", "half-open"])
      .describe("Circuit breaker: `open` takes no traffic until a half-open probe succeeds."),
    consecutiveFailures: z.number().int().describe("Failed requests in a row."),
    inFlight: z.number().int().describe("Requests running on it now."),
    stickyJobs: z.number().int().describe("Jobs whose turns currently stick to this backend."),
    registeredAtMs: z.number().describe("Registration time, ms since the Unix epoch."),
    lastHealthCheck: z
      .object({
        atMs: z.number().describe("When it was checked, ms since the Unix epoch."),
        isHealthy: z.boolean().describe("Whether it answered healthy."),
      })
      .nullable()
      .describe("The last health check, or null before the first."),
    stats: ZBackendStats.describe("Request, token and cache statistics since registration."),
  })
  .meta({
    id: "Backend",
    description: "One registered inference backend with its routing state and statistics.",
  });
export type TBackendView = z.infer<typeof ZBackendView>;

/** Input of the procedures that act on one backend. */
export const ZBackendIdRequest = z
  .object({ id: ZBackendId })
  .strict()
  .meta({ description: "The backend to act on." });

/** Output of the procedures that act on one backend: its view after the change. */
export const ZBackendResponse = z
  .object({ backend: ZBackendView })
  .meta({ description: "The backend after the change." });
