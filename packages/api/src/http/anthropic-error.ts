import type { ServerResponse } from "node:http";
import type { RequestFailureData, TRequestCode } from "@raas/shared";
import { httpStatusOf } from "../errors/http-status";
import { sendJson } from "./send-json";

/** Anthropic's error types for the gateway's request codes (what its clients branch on). */
const ANTHROPIC_ERROR_TYPE: Record<TRequestCode, string> = {
  BAD_REQUEST: "invalid_request_error",
  VALIDATION_FAILED: "invalid_request_error",
  UNKNOWN_HANDLER_KIND: "invalid_request_error",
  UNAUTHORIZED: "authentication_error",
  FORBIDDEN: "permission_error",
  NOT_FOUND: "not_found_error",
  METHOD_NOT_ALLOWED: "invalid_request_error",
  CONFLICT: "invalid_request_error",
  PAYLOAD_TOO_LARGE: "request_too_large",
  UNSUPPORTED_MEDIA_TYPE: "invalid_request_error",
  TOO_MANY_REQUESTS: "rate_limit_error",
  UNAVAILABLE: "overloaded_error",
  INTERNAL: "api_error",
};

/** Anthropic's error body: `{ type: "error", error: { type, message } }`. */
export function anthropicErrorBody(failure: RequestFailureData): {
  type: "error";
  error: { type: string; message: string };
} {
  return { type: "error", error: { type: ANTHROPIC_ERROR_TYPE[failure.code], message: failure.message } };
}

/** An error of an Anthropic-shaped gateway route, with the code's HTTP status. */
export function sendAnthropicError(
  res: ServerResponse,
  failure: RequestFailureData,
  headers: Record<string, string> = {},
): void {
  sendJson(res, httpStatusOf(failure), anthropicErrorBody(failure), headers);
}
