/** A validation issue as zod (and other Standard Schema libraries) report it. */
export interface SchemaIssue {
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
  message: string;
}

/** At most this many issues are spelled out; the rest are counted. */
const MAX_LISTED_ISSUES = 5;

/** True when `value` carries an `issues` array (a ZodError or a Standard Schema failure). */
export function hasSchemaIssues(value: unknown): value is { issues: SchemaIssue[] } {
  if (typeof value !== "object" || value === null || !("issues" in value)) return false;
  const issues = (value as { issues: unknown }).issues;
  return Array.isArray(issues) && issues.every((issue) => typeof issue?.message === "string");
}

/** `payload.items[2].kind` from `["payload", "items", 2, "kind"]`; `input` for the root. */
export function formatIssuePath(path: SchemaIssue["path"]): string {
  if (!path || path.length === 0) return "input";
  let out = "";
  for (const segment of path) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    if (typeof key === "number") out += `[${key}]`;
    else out += out.length === 0 ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * One readable sentence from a list of issues, e.g.
 * `payload.kind: expected string, received number; priority: too big: expected number to be <=1000000`.
 */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  if (issues.length === 0) return "the input is invalid";
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const message = issue.message.replace(/^Invalid input:\s*/, "");
    // Refinements on the whole object read best without a path.
    if ((!issue.path || issue.path.length === 0) && !/^expected /.test(message)) return message;
    return `${formatIssuePath(issue.path)}: ${message}`;
  });
  const rest = issues.length - listed.length;
  return rest > 0 ? `${listed.join("; ")} (and ${rest} more)` : listed.join("; ");
}

/** Issues in a JSON-safe form for `error.details.issues`. */
export function issuesAsDetails(issues: readonly SchemaIssue[]): Array<{ path: string; message: string }> {
  return issues.slice(0, 20).map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message }));
}
