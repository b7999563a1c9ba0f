import { readFileSync } from "node:fs";
import type { TSubmitJobRequest } from "@raas/shared";

/**
 * Reads submit requests from a JSON file (one object or an array) or JSONL (one object per line).
 * `-` reads standard input. Errors name the file and line.
 */
export function readRequests(path: string, defaults: { kind?: string }): TSubmitJobRequest[] {
  const text = readFileSync(path === "-" ? 0 : path, "utf8");
  const trimmed = text.trim();
  if (trimmed === "") throw new Error(`${path} is empty: expected JSON or JSONL job requests`);
  let items: unknown[];
  try {
    const whole: unknown = JSON.parse(trimmed);
    items = Array.isArray(whole) ? whole : [whole];
  } catch {
    items = trimmed.split("\n").flatMap((line, index) => {
      if (line.trim() === "") return [];
      try {
        return [JSON.parse(line) as unknown];
      } catch (error) {
        throw new Error(`${path}:${index + 1}: not valid JSON (${(error as Error).message})`);
      }
    });
  }
  return items.map((item, index) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      throw new Error(`${path}: item ${index + 1} is not a JSON object`);
    }
    const request = { ...(item as Record<string, unknown>) };
    if (request.kind === undefined && defaults.kind !== undefined) request.kind = defaults.kind;
    return request as TSubmitJobRequest;
  });
}
