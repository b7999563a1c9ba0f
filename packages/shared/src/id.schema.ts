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
