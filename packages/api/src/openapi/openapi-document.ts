import { REQUEST_CODES } from "@raas/shared";
import { z } from "zod";
import type { RestRoute } from "../rest/rest-route.types";
import { BATCH_JSONL_PATH, batchJsonlOperation } from "./batch-jsonl-operation";
import { addHandlerKindUnions, type OpenApiHandlerSchemas } from "./handler-kind-schemas";
import { routeOperation } from "./route-operation";
import { type JsonSchema, SchemaComponents } from "./schema-components";
import { securitySchemeText } from "./security-text";
import { STEP_STREAM_PATH, stepStreamOperation } from "./step-stream-operation";

/** Options of the generated OpenAPI document. */
export interface OpenApiDocumentOptions {
  /** `info.title`. Default "RaaS control plane". */
  title?: string;
  /** `info.version`. Default "0.1.0". */
  version?: string;
  /** Server URLs listed in the document (e.g. the public base URL). Default `/` (the serving origin). */
  serverUrls?: string[];
  /** The registered handlers: per-kind payload and result schemas. Default none (generic payloads). */
  handlers?: readonly OpenApiHandlerSchemas[];
}

const ZErrorBody = z
  .object({
    error: z
      .object({
        code: z
          .enum(REQUEST_CODES)
          .describe("RaaS error code; each maps to one HTTP status (see the response descriptions)."),
        message: z.string().describe("One sentence a human understands: what was wrong and how to fix it."),
        details: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            "Structured detail when there is some: `issues` (path + message per invalid field), `fields` (what differs on a 409), `allow` (methods on a 405), `reference` (of a 500, also in the server log).",
          ),
      })
      .describe("The error."),
  })
  .meta({ id: "Error", description: "Every error: `{ error: { code, message, details? } }`." });

const TAG_TEXT: Record<string, string> = {
  jobs: "Submit, inspect, wait for, cancel and export rollout jobs.",
  system: "Health, statistics, pool sizes and the caller's role.",
  backends:
    "Inference backends: register, list with load and cache statistics, drain, resume, remove, weight versions.",
  benchmarks:
    "Benchmark runs (e.g. SWE-bench evaluations of a model on a dataset) and their per-instance results.",
  workers:
    "Worker processes (the server itself in the embedded default): list with pool occupancy and heartbeat age, drain, resume.",
  runs: "Training runs: a series of steps of one model on one dataset; create (idempotent by runKey), list, finish.",
  steps:
    "Training steps: m groups of n samples with server-side dynamic sampling (DAPO); create, read groups as they are decided (long-poll or SSE), cancel.",
  policy:
    "The policy's weight version (samples are stamped with it; staleness counts in it) and the weight-sync pause and resume.",
  datasets: "Datasets a step may draw its tasks from.",
};

/**
 * OpenAPI 3.1 document of the REST routes, generated from the procedures' own zod schemas (JSON
 * Schema 2020-12, which OpenAPI 3.1 uses as is) and their `meta.openapi`.
 */
export function buildOpenApiDocument(
  routes: readonly RestRoute[],
  options: OpenApiDocumentOptions = {},
): JsonSchema {
  const components = new SchemaComponents();
  components.add("Error", ZErrorBody, "output");
  const paths: Record<string, Record<string, unknown>> = {};

  for (const route of routes) {
    paths[route.path] = {
      ...(paths[route.path] ?? {}),
      [route.method.toLowerCase()]: routeOperation(route, components),
    };
  }
  paths[BATCH_JSONL_PATH] = { get: batchJsonlOperation(components) };
  paths[STEP_STREAM_PATH] = { get: stepStreamOperation(components) };
  addHandlerKindUnions(components, options.handlers ?? []);

  const tags = [...new Set(routes.map((route) => route.tag))];
  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "RaaS control plane",
      version: options.version ?? "0.1.0",
      description:
        "Rollout-as-a-Service: submit rollout jobs (INIT → RUN → EVAL in sandboxes against inference backends), wait for them, read and export their trajectories (token ids, logprobs, rewards). The same procedures are served over tRPC at `/trpc`. Errors are `{ error: { code, message, details? } }`.",
    },
    servers: (options.serverUrls ?? ["/"]).map((url) => ({
      url,
      description: url === "/" ? "The server that serves this document." : "RaaS control plane.",
    })),
    security: [{ bearerAuth: [] }],
    tags: tags.map((name) => ({ name, description: TAG_TEXT[name] ?? `The ${name} procedures.` })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: securitySchemeText(routes) },
      },
      schemas: components.schemas,
    },
  };
}
