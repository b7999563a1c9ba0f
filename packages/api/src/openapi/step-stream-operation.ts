import { ZGroupResult, ZStep } from "@raas/shared";
import { STEP_STREAM_PATH } from "../http/step-stream";
import type { JsonSchema, SchemaComponents } from "./schema-components";
import { componentRef } from "./schema-components";

export { STEP_STREAM_PATH };

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: componentRef("Error") } },
});

/**
 * The OpenAPI operation of a step's Server-Sent Events stream (served by `http/step-stream.ts`,
 * not by a procedure: its body is a stream of events, not one JSON value).
 */
export function stepStreamOperation(components: SchemaComponents): JsonSchema {
  const group = components.add("GroupResult", ZGroupResult, "output");
  const step = components.add("Step", ZStep, "output");
  return {
    operationId: "streamStepGroups",
    summary: "A step's handed-out groups as Server-Sent Events, then a done event with the final step.",
    description:
      "`text/event-stream`: one `event: group` per handed-out group in completion order (`data` is the GroupResult JSON " +
      "with every member's trajectory, `id` its seq), then `event: done` whose `data` is the final Step, and the " +
      "response ends. Comment lines (`: heartbeat`) keep an idle connection open. To resume after a dropped " +
      "connection send `Last-Event-ID` (EventSource does) or `afterSeq` with the last seq received; the larger wins. " +
      "Counts against the server's live-subscription caps (503 with `retry-after` past them). Errors found before the " +
      "first event are ordinary JSON errors; a failure later cuts the connection. The same groups come from " +
      "`nextStepGroups` (long-poll) and the tRPC subscription `steps.onGroups`. 404 for an unknown step id; 503 when " +
      "the server runs no batch system.\n\nRole: viewer or higher.",
    tags: ["steps"],
    "x-raas-role": "viewer",
    parameters: [
      {
        name: "stepId",
        in: "path",
        required: true,
        description: "The step's id (`stp_…`).",
        schema: { type: "string", minLength: 1, maxLength: 200 },
      },
      {
        name: "afterSeq",
        in: "query",
        required: false,
        description: "Send only groups handed out after this seq (0 from the start). Default 0.",
        schema: { type: "integer", minimum: 0, default: 0 },
      },
      {
        name: "Last-Event-ID",
        in: "header",
        required: false,
        description: "The `id` of the last event received (a group's seq), sent by EventSource on reconnect.",
        schema: { type: "string", pattern: "^\\d{1,15}$" },
      },
    ],
    responses: {
      "200": {
        description:
          "Server-Sent Events: `event: group` (data: a GroupResult, id: its seq) for each group, then `event: done` (data: the Step).",
        content: {
          "text/event-stream": {
            schema: {
              description:
                "The `data` of one event: a GroupResult (`event: group`) or the final Step (`event: done`).",
              oneOf: [group, step],
            },
          },
        },
      },
      "400": errorResponse(
        "VALIDATION_FAILED or BAD_REQUEST: a bad afterSeq or Last-Event-ID, another query parameter, bad percent-encoding.",
      ),
      "401": errorResponse(
        "UNAUTHORIZED: no bearer token, or one that matches no role (when reads need a token).",
      ),
      "403": errorResponse("FORBIDDEN: the token's role is below viewer."),
      "404": errorResponse("NOT_FOUND: no step has this id."),
      "405": errorResponse("METHOD_NOT_ALLOWED: only GET."),
      "503": errorResponse(
        "UNAVAILABLE: too many live subscriptions (retry after `retry-after` seconds), or the server runs no batch system.",
      ),
      "500": errorResponse(
        "INTERNAL: a bug in RaaS (never a caller's mistake); `details.reference` is in the server log.",
      ),
    },
  };
}
