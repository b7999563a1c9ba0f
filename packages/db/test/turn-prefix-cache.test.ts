import { describe, expect, it } from "vitest";
import { TurnPrefixCache } from "../src/store/turn-prefix-cache";
import { makeTurn } from "./support/job-fixtures";

describe("TurnPrefixCache", () => {
  it("answers only for the turn right before the asked index, and keeps each job's highest turn", () => {
    const cache = new TurnPrefixCache();
    cache.remember([makeTurn("job_a", 0), makeTurn("job_a", 1), makeTurn("job_b", 4)]);
    expect(cache.previousOf("job_a", 2)).toMatchObject({ index: 1 });
    expect(cache.previousOf("job_a", 1)).toBeUndefined();
    expect(cache.previousOf("job_b", 5)).toMatchObject({ index: 4 });
    cache.remember([makeTurn("job_a", 0)]); // an older index does not replace the newer one
    expect(cache.previousOf("job_a", 2)).toMatchObject({ index: 1 });
    cache.forget("job_a");
    expect(cache.previousOf("job_a", 2)).toBeUndefined();
  });

  it("forgets the least recently written jobs beyond its bound", () => {
    const cache = new TurnPrefixCache(2);
    cache.remember([makeTurn("job_1", 0), makeTurn("job_2", 0)]);
    cache.remember([makeTurn("job_1", 1)]);
    cache.remember([makeTurn("job_3", 0)]);
    expect(cache.previousOf("job_2", 1)).toBeUndefined();
    expect(cache.previousOf("job_1", 2)).toMatchObject({ index: 1 });
    expect(cache.previousOf("job_3", 1)).toMatchObject({ index: 0 });
  });
});
