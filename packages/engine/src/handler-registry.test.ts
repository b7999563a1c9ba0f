import { describe, expect, it } from "vitest";
import { HandlerRegistry } from "./handler-registry";
import { createSleepHandler } from "./handlers/sleep-handler";

describe("HandlerRegistry", () => {
  it("accepts a finite failure reward and rejects one that is not", () => {
    expect(
      new HandlerRegistry().register(createSleepHandler({ failureReward: -1 })).get("sleep").failureReward,
    ).toBe(-1);
    for (const failureReward of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new HandlerRegistry().register(createSleepHandler({ failureReward }))).toThrow(
        `handler "sleep" has failureReward ${failureReward}; it must be a finite number`,
      );
    }
  });
});
