import { z } from "zod";

/**
 * Output schema of a subscription: an async iterable whose every item is parsed with `item`.
 * Lets subscriptions declare `.output()` like every other procedure.
 */
export function zAsyncIterableOf<T extends z.ZodType>(item: T) {
  return z
    .custom<AsyncIterable<z.input<T>>>(
      (value) => typeof value === "object" && value !== null && Symbol.asyncIterator in (value as object),
      "expected an async iterable",
    )
    .transform(async function* (iterable): AsyncGenerator<z.output<T>, void, unknown> {
      for await (const value of iterable) yield item.parse(value);
    });
}
