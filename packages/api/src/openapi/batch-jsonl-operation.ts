import { ZTrajectoryExport } from "@raas/shared";
import { BATCH_JSONL_PATH } from "../http/batch-jsonl";
import { TOKEN_EXACT_TEXT } from "../routers/jobs/export";
import { componentRef, type JsonSchema, type SchemaComponents } from "./schema-components";

export { BATCH_JSONL_PATH };

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: componentRef("Error") } },
});

/**
 * The OpenAPI operation of the JSON Lines export of a batch (served by `http/batch-jsonl.ts`, not
 * by a procedure: its body is a stream of rows, not one JSON value).
 */
export function batchJsonlOperation(components: SchemaComponents): JsonSchema {
  const row = components.add("TrajectoryExport", ZTrajectoryExport, "output");
  return {
    operationId: "streamBatchTrajectories",
    summary: "A whole batch's trajectories for training as JSON Lines (one exportTrajectory row per line).",
    description:
      "Streams every job of the batch (any status; filter on `trainable`), newest first, as `application/x-ndjson`: one " +
      "JSON object per line, each the row `GET /api/v1/jobs/{jobId}/export` returns. The server reads the store a few jobs " +
      "at a time and writes as the client reads, so a large batch never sits in memory whole. Errors found before the " +
      "first line are ordinary JSON errors; a failure later cuts the connection (the body then does not end cleanly). " +
      `${TOKEN_EXACT_TEXT} 404 when no job has this batch id.\n\nRole: viewer or higher.`,
    tags: ["jobs"],
    "x-raas-role": "viewer",
    parameters: [
      {
        name: "batchId",
        in: "path",
        required: true,
        description: "The batch whose jobs to export.",
        schema: { type: "string", minLength: 1, maxLength: 200 },
      },
    ],
    responses: {
      "200": {
        description: "One TrajectoryExport object per line, each line ending in `\\n`.",
        content: { "application/x-ndjson": { schema: row } },
      },
      "400": errorResponse(
        "VALIDATION_FAILED or BAD_REQUEST: a batch id with control characters or bad percent-encoding, or a query parameter (none is taken).",
      ),
      "401": errorResponse(
        "UNAUTHORIZED: no bearer token, or one that matches no role (when reads need a token).",
      ),
      "403": errorResponse("FORBIDDEN: the token's role is below viewer."),
      "404": errorResponse("NOT_FOUND: no job has this batch id."),
      "405": errorResponse("METHOD_NOT_ALLOWED: only GET."),
      "500": errorResponse(
        "INTERNAL: a bug in RaaS (never a caller's mistake); `details.reference` is in the server log.",
      ),
    },
  };
}
