import type { InferenceBackendKind } from "@raas/engine";
import { hasControlCharacter, hasUrlUserinfo, URL_USERINFO_MESSAGE } from "@raas/shared";
import { z } from "zod";

/** Wire protocols of inference backends (the engine's `InferenceBackendKind`). */
const BACKEND_KINDS = ["vllm", "sglang", "nemo-rl"] as const satisfies readonly InferenceBackendKind[];
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
  .refine((value) => !hasControlCharacter(value), { error: "must not contain control characters" })
  .nullable()
  .describe("A weight version label (e.g. the training step `step-120`); null when unknown.");

const ZBackendStats = z.object({
  requests: z.number().describe("Generation requests sent since registration."),
  errors: z.number().describe("Requests that failed."),
  aborted: z.number().describe("Requests aborted (job cancelled or timed out)."),
  promptTokens: z.number().describe("Prompt tokens sent in successful requests."),
  cachedPromptTokens: z
    .number()
    .describe("Of those, tokens the backend reported as served from its prefix cache."),
  promptTokensWithKnownCache: z
    .number()
    .describe(
      "Prompt tokens of the successful requests whose cached count the backend reported (the hit rate's denominator).",
    ),
  responseTokens: z.number().describe("Tokens generated in successful requests."),
  prefixCacheHitRate: z
    .number()
    .nullable()
    .describe(
      "cachedPromptTokens / prompt tokens over successful requests whose cached count the backend reported, 0..1; null while none did.",
    ),
  requestsWithUnknownCachedTokens: z
    .number()
    .int()
    .describe("Successful requests whose cached-token count the backend did not report."),
  responseTokensPerSec: z.number().describe("Recent generation throughput, tokens per second."),
  meanLatencyMs: z.number().describe("Mean request latency in ms."),
  reported: z
    .object({
      prefixCacheQueries: z.number().describe("Prefix-cache lookups (tokens), summed over engines."),
      prefixCacheHits: z.number().describe("Prefix-cache hits (tokens), summed over engines."),
      hitRate: z.number().describe("prefixCacheHits / prefixCacheQueries, 0..1."),
      kvCacheUsage: z
        .object({
          mean: z.number().describe("Mean KV-cache usage over engines, 0..1."),
          max: z.number().describe("Highest KV-cache usage of any engine, 0..1."),
        })
        .nullable()
        .optional()
        .describe("KV-cache usage as a fraction per engine, averaged and maxed; null when not reported."),
      engines: z
        .array(
          z.object({
            engine: z.string().describe("The data-parallel engine's label (`engine` in `/metrics`)."),
            prefixCacheQueries: z.number().nullable().describe("Its prefix-cache lookups, or null."),
            prefixCacheHits: z.number().nullable().describe("Its prefix-cache hits, or null."),
            kvCacheUsage: z.number().nullable().describe("Its KV-cache usage, 0..1, or null."),
            running: z.number().nullable().describe("Requests it runs now, or null."),
            waiting: z.number().nullable().describe("Requests waiting in it, or null."),
          }),
        )
        .optional()
        .describe("The same figures per data-parallel engine."),
    })
    .nullable()
    .describe(
      "The backend's own figures (vLLM `/metrics`) when it exposes them: prefix-cache counters summed over its data-parallel engines, KV-cache usage as mean and max over engines, and the same per engine; else null.",
    ),
});

/** How busy a backend's batch slots were over the stats window (the engine's `InferenceUtilisation`). */
const ZInferenceUtilisation = z.object({
  busyFraction: z
    .number()
    .describe("Inference busy fraction: share (0..1) of the window with at least one request running."),
  meanRunning: z.number().describe("Time-weighted mean of requests running over the window."),
  slotUtilisation: z
    .number()
    .describe("meanRunning / maxConcurrency: share of its batch slots in use over the window."),
  coveredMs: z
    .number()
    .describe("Part of the window the figures cover, in ms (less right after registration)."),
  windowMs: z.number().describe("Span of the sliding window, in ms."),
  source: z
    .enum(["reported", "in-flight"])
    .describe(
      "`reported`: sampled from the backend's own running gauge (vLLM `vllm:num_requests_running`) at each health check; `in-flight`: this service's count of requests it sent there, for backends that report none.",
    ),
});

/** One worker's own figures for a backend (distributed mode), beside the merged ones. */
const ZBackendWorkerView = z.object({
  workerId: z.string().describe("The worker's id (`workers.list`)."),
  lifecycle: z
    .enum(["active", "draining", "drained"])
    .describe("The backend's lifecycle in that worker's pool."),
  circuit: z.enum(["closed", "open", "half-open"]).describe("Its circuit breaker in that worker's pool."),
  inFlight: z.number().int().describe("Requests that worker runs on it now."),
  requests: z.number().describe("Requests that worker sent it since it registered the backend."),
  errors: z.number().describe("Of those, failed."),
  responseTokens: z.number().describe("Tokens it generated for that worker."),
  prefixCacheHitRate: z
    .number()
    .nullable()
    .describe("That worker's prefix-cache hit rate, 0..1; null while unknown."),
  responseTokensPerSec: z.number().describe("That worker's recent generation throughput, tokens per second."),
  weightVersion: z.string().nullable().describe("The weight version that worker records for it."),
  lastHealthCheck: z
    .object({
      atMs: z.number().describe("When that worker checked, in ms since the epoch."),
      isHealthy: z.boolean().describe("Whether the backend answered the check."),
    })
    .nullable()
    .describe("That worker's last health check of it, or null."),
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
    policyId: z
      .string()
      .describe("The policy whose weights it serves: only that policy's jobs are routed to it."),
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
    utilisation: ZInferenceUtilisation.nullable()
      .optional()
      .describe(
        "Inference busy fraction and batch-slot utilisation over the stats window; null before any time has passed, absent in views merged from workers.",
      ),
    workers: z
      .array(ZBackendWorkerView)
      .optional()
      .describe(
        "In `backends.list`: each live worker's own figures for this backend from its last heartbeat (distributed mode; empty when only this server routes). The fields above are this server's merged with these.",
      ),
  })
  .meta({
    id: "Backend",
    description: "One registered inference backend with its routing state and statistics.",
  });

/** Input of the procedures that act on one backend. */
export const ZBackendIdRequest = z
  .object({ id: ZBackendId })
  .strict()
  .meta({ description: "The backend to act on." });

/** Output of the procedures that act on one backend: its view after the change. */
export const ZBackendResponse = z
  .object({ backend: ZBackendView })
  .meta({ description: "The backend after the change." });
