import { describe, expect, it } from "vitest";
import { parseSandboxFilters, sandboxFiltersQuery, sandboxQueryInput } from "./sandbox-filters.types";

describe("sandbox filters in the query string", () => {
  it("reads host and a known window; drops unknown windows and blanks", () => {
    expect(parseSandboxFilters(new URLSearchParams("host=node-1:42&since=1h"))).toEqual({
      host: "node-1:42",
      since: "1h",
    });
    expect(parseSandboxFilters(new URLSearchParams("host=%20&since=7y"))).toEqual({});
  });

  it("writes them back, and turns them into the API's hostId and sinceMs", () => {
    expect(sandboxFiltersQuery({ host: "node-1:42", since: "15m" })).toBe("?host=node-1%3A42&since=15m");
    expect(sandboxFiltersQuery({})).toBe("");
    expect(sandboxQueryInput({ host: "h", since: "15m" }, 1_000_000_000)).toEqual({
      hostId: "h",
      sinceMs: 1_000_000_000 - 900_000,
    });
    expect(sandboxQueryInput({}, 5)).toEqual({});
  });
});
