import { redactUrlUserinfo } from "./url-userinfo";

/** What replaces a secret in logs. */
const REDACTED = "[redacted]";

/** Secrets shorter than this are not searched for by value (they would match ordinary words). */
const MIN_SECRET_LENGTH = 6;

/**
 * Shapes that carry a credential whatever its value: a bearer header, a `token=`/`access_token=`/
 * `connectionParams=` query value (tRPC's SSE sends the token there), a JSON `"token": "…"`, and a
 * URL's `user:password@`.
 */
const SECRET_SHAPES: Array<[RegExp, string]> = [
  [/(\bbearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
  [/(\b(?:access_token|token|connectionParams)=)[^&\s"']+/gi, `$1${REDACTED}`],
  [/("token"\s*:\s*")(?:[^"\\]|\\.)*"/gi, `$1${REDACTED}"`],
];

/**
 * A function that hides credentials in a text: the configured secret values wherever they occur,
 * and the shapes in `SECRET_SHAPES` for tokens it does not know (a wrong or old token is still
 * somebody's secret).
 */
export function createSecretRedactor(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const known = [...new Set(secrets.filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH))]
    // Longest first, so a secret containing another is hidden whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
    return redactUrlUserinfo(out);
  };
}

/** Field names whose value is a credential whatever it looks like. */
const SECRET_FIELD = /^(authorization|token|access_token|connectionparams|password|cookie)$/i;
const MAX_DEPTH = 6;

/** A copy of log fields with every string (also inside errors, arrays, objects) redacted. */
export function redactFields(
  fields: Record<string, unknown>,
  redact: (text: string) => string,
): Record<string, unknown> {
  return redactValue(fields, redact, 0) as Record<string, unknown>;
}

function redactValue(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object" || depth >= MAX_DEPTH) return value;
  if (value instanceof Error) return redactError(value, redact, depth);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_FIELD.test(key) && item != null ? REDACTED : redactValue(item, redact, depth + 1);
  }
  return out;
}

/** An Error of the same name with message, stack, cause and own fields redacted. */
function redactError(error: Error, redact: (text: string) => string, depth: number): Error {
  const copy = new Error(redact(error.message));
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : redact(error.stack);
  if (error.cause !== undefined) copy.cause = redactValue(error.cause, redact, depth + 1);
  for (const [key, item] of Object.entries(error)) {
    Reflect.set(copy, key, redactValue(item, redact, depth + 1));
  }
  return copy;
}
