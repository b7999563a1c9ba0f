import { isTrackedEnvelope, tracked } from "@trpc/server";
import { z } from "zod";

/**
 * Output schema of a subscription that yields `tracked(id, item)` envelopes (so that the tRPC
 * client resumes from the last event id after a reconnect) as well as plain items: each item is
 * parsed with `item`, an envelope keeps its id around the parsed item.
 */
export function zTrackedIterableOf<T extends z.ZodType>(item: T) {
  return z
    .custom<AsyncIterable<unknown>>(
      (value) => typeof value === "object" && value !== null && Symbol.asyncIterator in (value as object),
      "expected an async iterable",
    )
    .transform(async function* (iterable) {
      for await (const value of iterable) {
        if (isTrackedEnvelope(value)) yield tracked(value[0], item.parse(value[1]) as z.output<T>);
        else yield item.parse(value) as z.output<T>;
      }
    });
}
