import { ERROR_CODES } from "@raas/shared";
import { z } from "zod";
import type { RestRoute } from "../rest/rest-route.types";

/** Options of the generated OpenAPI document. */
export interface OpenApiDocumentOptions {
  /** `info.title`. Default "RaaS control plane". */
  title?: string;
  /** `info.version`. Default "0.1.0". */
  version?: string;
  /** Server URLs listed in the document (e.g. the public base URL). Default none (same origin). */
  serverUrls?: string[];
}

type JsonSchema = Record<string, unknown>;

const ZErrorBody = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

function toSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return json;
}

function pascal(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

/**
 * OpenAPI 3.1 document of the REST routes, generated from the same zod schemas the procedures
 * validate with (JSON Schema 2020-12, which OpenAPI 3.1 uses as is).
 */
export function buildOpenApiDocument(
  routes: readonly RestRoute[],
  options: OpenApiDocumentOptions = {},
): JsonSchema {
  const schemas: Record<string, JsonSchema> = { Error: toSchema(ZErrorBody, "output") };
  const paths: Record<string, Record<string, unknown>> = {};

  for (const route of routes) {
    const requestName = `${pascal(route.operationId)}Request`;
    const responseName = `${pascal(route.operationId)}Response`;
    schemas[responseName] = toSchema(route.response, "output");
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const parameters: JsonSchema[] = pathParams.map((name) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const operation: JsonSchema = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      ...(route.access === "public" ? { security: [] } : {}),
      "x-raas-role": route.access,
    };
    if (route.request && route.inputFrom === "query") {
      const json = toSchema(route.request, "input");
      const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((json.required ?? []) as string[]);
      for (const [name, schema] of Object.entries(properties)) {
        parameters.push({ name, in: "query", required: required.has(name), schema });
      }
    }
    if (route.request && route.inputFrom === "body") {
      schemas[requestName] = toSchema(route.request, "input");
      operation.requestBody = {
        required: true,
        content: { "application/json": { schema: { $ref: `#/components/schemas/${requestName}` } } },
      };
    }
    if (parameters.length > 0) operation.parameters = parameters;
    const ok = {
      description: "Success",
      content: { "application/json": { schema: { $ref: `#/components/schemas/${responseName}` } } },
    };
    const responses: Record<string, unknown> = {};
    if (typeof route.successStatus === "number") responses[String(route.successStatus)] = ok;
    else {
      responses["200"] = ok;
      responses["201"] = { ...ok, description: "Created" };
    }
    const errorResponse = (description: string) => ({
      description,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
    responses["400"] = errorResponse("Invalid request (bad JSON, wrong types, unknown handler kind)");
    if (route.access !== "public") {
      responses["401"] = errorResponse("Missing or invalid bearer token");
      responses["403"] = errorResponse("The token's role may not do this");
    }
    if (pathParams.length > 0) responses["404"] = errorResponse("Not found");
    if (route.mayConflict)
      responses["409"] = errorResponse("Conflicts with stored state (e.g. the id is taken)");
    if (route.mayBeUnavailable) responses["503"] = errorResponse("The server runs without what this needs");
    if (route.inputFrom === "body") {
      responses["413"] = errorResponse("Body larger than the server's limit");
      responses["415"] = errorResponse("Body is not JSON");
    }
    responses["500"] = errorResponse("A bug in RaaS (never a caller's mistake)");
    operation.responses = responses;
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "RaaS control plane",
      version: options.version ?? "0.1.0",
      description:
        "Rollout-as-a-Service: submit rollout jobs, wait for them, read trajectories. Errors are `{ error: { code, message, details? } }`.",
    },
    ...(options.serverUrls ? { servers: options.serverUrls.map((url) => ({ url })) } : {}),
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "jobs", description: "Submit, inspect, wait for and cancel rollout jobs." },
      { name: "system", description: "Health, statistics, pool sizes and the caller's role." },
      {
        name: "backends",
        description:
          "Inference backends: register, list with load and cache statistics, drain, resume, remove, weight versions.",
      },
      {
        name: "benchmarks",
        description:
          "Benchmark runs (e.g. SWE-bench evaluations of a model on a dataset) and their per-instance results.",
      },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Role token: admin, trainer or viewer." },
      },
      schemas,
    },
  };
}
