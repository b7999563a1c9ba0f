import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatIssue, formatIssueList, formatIssues, issuesAsDetails } from "./format-issues";
import { ZId } from "./id.schema";

describe("formatIssues", () => {
  it("drops zod's category prefixes and joins paths with dots and brackets", () => {
    const parsed = z
      .object({ items: z.array(z.object({ n: z.number().max(3) })), kind: z.enum(["a", "b"]) })
      .safeParse({ items: [{ n: 1 }, { n: 9 }], kind: "c" });
    expect(parsed.success).toBe(false);
    const text = formatIssues(parsed.error?.issues ?? []);
    expect(text).toBe('items[1].n: Too big: expected number to be <=3; kind: expected one of "a"|"b"');
    expect(text).not.toMatch(/Invalid/);
  });

  it("puts a prefix in front of every path (a batch's index, a payload)", () => {
    const parsed = z.object({ prompt: z.string() }).strict().safeParse({ prompt: 1, extra: true });
    const lines = formatIssueList(parsed.error?.issues ?? [], { prefix: ["jobs", 3, "payload"] });
    expect(lines).toEqual([
      "jobs[3].payload.prompt: expected string, received number",
      'jobs[3].payload: Unrecognized key: "extra"',
    ]);
  });

  it("names the root for a whole-input type error and keeps refinements bare", () => {
    expect(formatIssue({ path: [], message: "Invalid input: expected object, received string" })).toBe(
      "input: expected object, received string",
    );
    expect(
      formatIssue({ path: [], message: "give exactly one of jobId or groupId" }, { root: "payload" }),
    ).toBe("give exactly one of jobId or groupId");
  });

  it("lists at most five issues and counts the rest", () => {
    const issues = Array.from({ length: 8 }, (_, i) => ({
      path: [`f${i}`],
      message: "Invalid input: expected string",
    }));
    expect(formatIssues(issues)).toBe(
      "f0: expected string; f1: expected string; f2: expected string; f3: expected string; f4: expected string (and 3 more)",
    );
    expect(issuesAsDetails(issues, { prefix: ["jobs", 0] })[0]).toEqual({
      path: "jobs[0].f0",
      message: "expected string",
    });
  });
});

describe("ZId", () => {
  it("rejects control characters and accepts ordinary ids", () => {
    expect(ZId.safeParse("job_01abc").success).toBe(true);
    expect(ZId.safeParse("run-7/step:3 ü").success).toBe(true);
    for (const bad of ["a\u0000", "\u0000", "a\nb", "x\u007f", ""]) {
      const parsed = ZId.safeParse(bad);
      expect(parsed.success).toBe(false);
    }
    expect(formatIssues(ZId.safeParse("a\u0000").error?.issues ?? [], { prefix: ["jobId"] })).toBe(
      "jobId: must not contain control characters",
    );
  });
});
