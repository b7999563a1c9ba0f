import { readFileSync } from "node:fs";
import type { TSubmitJobRequest } from "@raas/shared";

/** Submit requests read from a file, with the text they came from (for job keys). */
export interface RequestFile {
  requests: TSubmitJobRequest[];
  /** Where each request sits in the file: its line (JSONL) or array index + 1 (JSON). */
  positions: number[];
  /** The file's text, as read. */
  text: string;
}

/**
 * Reads submit requests from a JSON file (one object or an array) or JSONL (one object per line).
 * `-` reads standard input. Errors name the file and line.
 */
export function readRequests(path: string, defaults: { kind?: string }): RequestFile {
  const text = readFileSync(path === "-" ? 0 : path, "utf8");
  const trimmed = text.trim();
  if (trimmed === "") throw new Error(`${path} is empty: expected JSON or JSONL job requests`);
  let items: Array<{ item: unknown; position: number }>;
  try {
    const whole: unknown = JSON.parse(trimmed);
    items = (Array.isArray(whole) ? whole : [whole]).map((item, index) => ({ item, position: index + 1 }));
  } catch {
    items = text.split("\n").flatMap((line, index) => {
      if (line.trim() === "") return [];
      try {
        return [{ item: JSON.parse(line) as unknown, position: index + 1 }];
      } catch (error) {
        throw new Error(`${path}:${index + 1}: not valid JSON (${(error as Error).message})`);
      }
    });
  }
  const requests = items.map(({ item, position }) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      throw new Error(`${path}:${position}: not a JSON object`);
    }
    const request = { ...(item as Record<string, unknown>) };
    if (request.kind === undefined && defaults.kind !== undefined) request.kind = defaults.kind;
    return request as TSubmitJobRequest;
  });
  return { requests, positions: items.map(({ position }) => position), text };
}
