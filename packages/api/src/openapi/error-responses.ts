import type { RestRoute } from "../rest/rest-route.types";
import { componentRef } from "./schema-components";

function errorResponse(description: string) {
  return { description, content: { "application/json": { schema: componentRef("Error") } } };
}

/** The error responses a route really answers, each with the cause in its description. */
export function errorResponses(route: RestRoute): Record<string, unknown> {
  const errors = new Set(route.errors ?? []);
  const responses: Record<string, unknown> = {
    "400": errorResponse(
      "BAD_REQUEST, VALIDATION_FAILED or UNKNOWN_HANDLER_KIND: bad JSON, a missing or invalid field (each issue listed with its path in `details.issues`), an id with control characters, an unknown handler kind.",
    ),
  };
  if (route.access !== "public") {
    responses["401"] = errorResponse("UNAUTHORIZED: no bearer token, or one that matches no role.");
    responses["403"] = errorResponse(
      errors.has("FORBIDDEN")
        ? `FORBIDDEN: the token's role is below ${route.access}, or what it names belongs to another trainer's token (\`details.ownerId\`; the owner's token or an admin token is needed).`
        : `FORBIDDEN: the token's role is below ${route.access}.`,
    );
  }
  if (route.pathParams.length > 0 || errors.has("NOT_FOUND")) {
    responses["404"] = errorResponse(
      `NOT_FOUND: nothing with this ${route.pathParams.join("/") || "id"} exists.`,
    );
  }
  if (errors.has("CONFLICT")) {
    responses["409"] = errorResponse(
      "CONFLICT: the request contradicts stored state (a reused jobKey with a different request — `details.fields` names the fields that differ; a taken id).",
    );
  }
  if (route.inputFrom === "body") {
    responses["413"] = errorResponse(
      "PAYLOAD_TOO_LARGE: the body is larger than the server's limit (1 MiB by default).",
    );
    responses["415"] = errorResponse("UNSUPPORTED_MEDIA_TYPE: the body is not JSON.");
  }
  // Every route may meet a store outage; some also need a part the server may run without.
  responses["503"] = errorResponse(
    errors.has("UNAVAILABLE")
      ? "UNAVAILABLE: the server runs without what this needs (an inference pool, a benchmark store), or the store is unavailable (PostgreSQL unreachable; retry after `retry-after` seconds)."
      : "UNAVAILABLE: the store is unavailable (PostgreSQL unreachable); retry after `retry-after` seconds.",
  );
  responses["500"] = errorResponse(
    "INTERNAL: a bug in RaaS (never a caller's mistake); `details.reference` is in the server log.",
  );
  return responses;
}
