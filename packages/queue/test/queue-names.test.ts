import { describe, expect, it } from "vitest";
import { addressedQueueName, toBullJobId, toBullPriority } from "../src/redis/queue-names";

describe("BullMQ names and priorities", () => {
  it("maps higher-first priorities onto BullMQ's low-first 1..2^21, order kept, extremes clamped", () => {
    const priorities = [1_000_000, 7, 0, -3, -1_000_000];
    const mapped = priorities.map(toBullPriority);
    expect([...mapped].sort((a, b) => a - b)).toEqual(mapped);
    expect(new Set(mapped).size).toBe(priorities.length);
    for (const value of mapped) expect(value).toBeGreaterThanOrEqual(1);
    expect(toBullPriority(5_000_000)).toBe(1);
    expect(toBullPriority(-5_000_000)).toBe(2_097_151);
    expect(toBullPriority(Number.NaN)).toBe(toBullPriority(0));
  });

  it("keeps worker ids and job ids free of ':' and never integer-like", () => {
    expect(addressedQueueName("run", "node-3:4242")).toBe("run@node-3%3A4242");
    expect(toBullJobId("123")).toBe("j-123");
    expect(toBullJobId("a:b")).toBe("j-a%3Ab");
    // A job's further items never take another job's id.
    expect(toBullJobId("a", 2)).toBe("j-a#2");
    expect(toBullJobId("a#2")).not.toBe(toBullJobId("a", 2));
  });
});
