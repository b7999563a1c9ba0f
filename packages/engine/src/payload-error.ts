import {
  type FailureError,
  formatIssues,
  issuesAsDetails,
  type RequestFailureData,
  requestFailure,
  type SchemaIssue,
} from "@raas/shared";
import { z } from "zod";

const acceptedKeysCache = new WeakMap<z.ZodType, string[]>();

/** The top-level keys a payload schema accepts (empty when it is not an object schema). */
function acceptedKeysOf(schema: z.ZodType): string[] {
  let keys = acceptedKeysCache.get(schema);
  if (!keys) {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
      properties?: Record<string, unknown>;
      $ref?: string;
      $defs?: Record<string, { properties?: Record<string, unknown> }>;
    };
    // A named schema (`.meta({ id })`) converts to a `$ref` into its own `$defs`.
    const root = json.$ref?.startsWith("#/$defs/") ? json.$defs?.[json.$ref.slice("#/$defs/".length)] : json;
    keys = Object.keys(root?.properties ?? {});
    acceptedKeysCache.set(schema, keys);
  }
  return keys;
}

/**
 * The 400 for a payload its handler's schema rejects: every issue with its full path
 * (`jobs[3].payload.question: …`) and the keys the handler accepts, in one sentence.
 */
export function payloadValidationError(
  kind: string,
  schema: z.ZodType,
  issues: readonly SchemaIssue[],
  at: readonly PropertyKey[] = [],
): FailureError<RequestFailureData> {
  const prefix = [...at, "payload"];
  const keys = acceptedKeysOf(schema);
  const accepted = keys.length > 0 ? `; a ${kind} payload accepts: ${keys.join(", ")}` : "";
  return requestFailure(
    "VALIDATION_FAILED",
    `invalid payload for handler "${kind}": ${formatIssues(issues, { prefix })}${accepted}`,
    { details: { kind, issues: issuesAsDetails(issues, { prefix }), acceptedKeys: keys } },
  );
}
