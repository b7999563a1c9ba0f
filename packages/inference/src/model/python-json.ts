/**
 * JSON as Python's `json.dumps(value, ensure_ascii=False)` writes it (", " and ": " separators),
 * which is what the Jinja `tojson` filter of Hugging Face chat templates produces.
 */
export function toPythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "NaN";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(toPythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}: ${toPythonJson(v)}`).join(", ")}}`;
  }
  return JSON.stringify(String(value));
}
