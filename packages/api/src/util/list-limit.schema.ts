import { z } from "zod";

/** How many rows a list returns: a whole number from 1 to 1000, default 100, described per list. */
export function zListLimit(description: string) {
  return z.number({ error: "expected a number" }).int().min(1).max(1_000).default(100).describe(description);
}
