/** One validation issue as zod (and other Standard Schema libraries) report it. */
export interface SchemaIssue {
  readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined;
  readonly message: string;
}

/** Where the issues sit and how they are joined. */
export interface FormatIssuesOptions {
  /** Path segments in front of every issue's own path, e.g. `["jobs", 3, "payload"]`. Default none. */
  prefix?: ReadonlyArray<PropertyKey>;
  /** The name of the root when the full path is empty. Default `"input"`. */
  root?: string;
  /** At most this many issues are spelled out; the rest are counted. Default 5. */
  maxListed?: number;
}

/** Zod's "Invalid input: " style prefixes say nothing the rest of the message does not. */
const CATEGORY_PREFIX = /^invalid (input|option|string|element|key|union|type|value):\s*/i;

/** True when `value` carries an `issues` array (a ZodError or a Standard Schema failure). */
export function hasSchemaIssues(value: unknown): value is { issues: SchemaIssue[] } {
  if (typeof value !== "object" || value === null || !("issues" in value)) return false;
  const issues = (value as { issues: unknown }).issues;
  return Array.isArray(issues) && issues.every((issue) => typeof issue?.message === "string");
}

/** `payload.items[2].kind` from `["payload", "items", 2, "kind"]`; `root` when the path is empty. */
function formatIssuePath(path: SchemaIssue["path"], root = "input"): string {
  if (!path || path.length === 0) return root;
  let out = "";
  for (const segment of path) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    if (typeof key === "number") out += `[${key}]`;
    else out += out.length === 0 ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The issue's message without zod's category prefix. */
function issueMessage(issue: SchemaIssue): string {
  const message = issue.message.replace(CATEGORY_PREFIX, "").trim();
  return message.length === 0 ? "invalid value" : message;
}

/** `jobs[3].payload.prompt: expected string, received number`. */
export function formatIssue(issue: SchemaIssue, options: FormatIssuesOptions = {}): string {
  const path = [...(options.prefix ?? []), ...(issue.path ?? [])];
  const message = issueMessage(issue);
  // A refinement on the whole input reads best without a path ("give exactly one of …").
  if (path.length === 0 && !/^expected /.test(message)) return message;
  return `${formatIssuePath(path, options.root)}: ${message}`;
}

/** Each issue on its own, formatted by `formatIssue` (for multi-line reports such as env errors). */
export function formatIssueList(issues: readonly SchemaIssue[], options: FormatIssuesOptions = {}): string[] {
  return issues.map((issue) => formatIssue(issue, options));
}

/**
 * One readable sentence from a list of issues, e.g.
 * `payload.kind: expected string, received number; priority: expected number to be <=1000000`.
 */
export function formatIssues(issues: readonly SchemaIssue[], options: FormatIssuesOptions = {}): string {
  if (issues.length === 0) return "the input is invalid";
  const maxListed = options.maxListed ?? 5;
  const listed = formatIssueList(issues.slice(0, maxListed), options);
  const rest = issues.length - listed.length;
  return rest > 0 ? `${listed.join("; ")} (and ${rest} more)` : listed.join("; ");
}

/** Issues in a JSON-safe form for `error.details.issues` (at most 20). */
export function issuesAsDetails(
  issues: readonly SchemaIssue[],
  options: Pick<FormatIssuesOptions, "prefix" | "root"> = {},
): Array<{ path: string; message: string }> {
  return issues.slice(0, 20).map((issue) => ({
    path: formatIssuePath([...(options.prefix ?? []), ...(issue.path ?? [])], options.root),
    message: issueMessage(issue),
  }));
}
