import { z } from "zod";
import type { RewardAggregate, RunRecord } from "./batch-store.port";

// Schemas of the batch values a store keeps as JSON, for adapters that read them back (parse,
// don't cast). Each is tied to its interface by `satisfies`, so the two cannot drift apart.

export const ZRewardAggregate = z.object({
  count: z.number(),
  sum: z.number(),
  sumOfSquares: z.number(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  finished: z.number(),
  solved: z.number(),
  deliveredTokens: z.number(),
}) satisfies z.ZodType<RewardAggregate>;

/** A run's next position in each dataset its steps drew from. */
export const ZTaskCursors = z.record(z.string(), z.number()) satisfies z.ZodType<RunRecord["taskCursors"]>;
