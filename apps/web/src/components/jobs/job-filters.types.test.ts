import { describe, expect, it } from "vitest";
import { parseJobFilters, toListRequest, toQueryString } from "./job-filters.types";

describe("job filters", () => {
  it("reads a failure label from the URL, dropping unknown ones, and passes it to jobs.list", () => {
    const filters = parseJobFilters(new URLSearchParams("failureKind=agent&failureLabel=tampered"));
    expect(filters).toEqual({ failureKind: "agent", failureLabel: "tampered" });
    expect(toQueryString(filters)).toBe("?failureKind=agent&failureLabel=tampered");
    expect(toListRequest(filters)).toMatchObject({ failureLabel: "tampered" });
    expect(parseJobFilters(new URLSearchParams("failureLabel=forged"))).toEqual({});
  });
});
