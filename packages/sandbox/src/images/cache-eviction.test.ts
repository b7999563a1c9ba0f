import { describe, expect, it } from "vitest";
import { chooseEvictions } from "./cache-eviction";

const entry = (key: string, sizeBytes: number, lastUsedMs: number, isReferenced = false) => ({
  key,
  sizeBytes,
  lastUsedMs,
  isReferenced,
});

describe("chooseEvictions", () => {
  it("evicts nothing within the cap", () => {
    expect(chooseEvictions([entry("a", 10, 1), entry("b", 10, 2)], 20)).toEqual([]);
  });

  it("evicts least recently used first until the total fits", () => {
    const entries = [entry("new", 10, 30), entry("old", 10, 10), entry("mid", 10, 20)];
    expect(chooseEvictions(entries, 15)).toEqual(["old", "mid"]);
    expect(chooseEvictions(entries, 20)).toEqual(["old"]);
  });

  it("never evicts a referenced entry, even over the cap", () => {
    const entries = [entry("held", 50, 1, true), entry("free", 10, 5)];
    expect(chooseEvictions(entries, 20)).toEqual(["free"]);
    expect(chooseEvictions([entry("held", 50, 1, true)], 20)).toEqual([]);
  });
});
