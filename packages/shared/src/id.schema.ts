import { z } from "zod";

/** C0 controls and DEL: never part of an id, and NUL makes database drivers fail. */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * An id-like string (job, group, batch, backend or benchmark id, job key, cursor): 1 to
 * `maxLength` characters, no control characters — so a `%00` in a URL is a 400, never a driver error.
 */
export function zIdString(maxLength = 200) {
  return z
    .string()
    .min(1)
    .max(maxLength)
    .refine((value) => !hasControlCharacter(value), { message: "must not contain control characters" });
}

/** The id of a job, group, batch, backend or benchmark run. */
export const ZId = zIdString(200);

/** A free-text filter (search, model name): may be empty, never holds control characters. */
export function zFilterString(maxLength: number) {
  return z
    .string()
    .max(maxLength)
    .refine((value) => !hasControlCharacter(value), { message: "must not contain control characters" });
}

/**
 * The path of the first string or key holding U+0000 in a JSON value, or null. PostgreSQL stores
 * no NUL in text or jsonb, so such a payload is the caller's mistake (400), not a store outage.
 */
export function findNulCharacter(value: unknown, path: PropertyKey[] = []): PropertyKey[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findNulCharacter(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes("\u0000")) return [...path, key];
      const found = findNulCharacter(inner, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** A JSON object (payload, metadata) whose strings and keys hold no U+0000. */
export function zJsonObjectWithoutNul() {
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const path = findNulCharacter(value);
    if (path) ctx.addIssue({ code: "custom", path, message: "must not contain the NUL character (\\u0000)" });
  });
}
