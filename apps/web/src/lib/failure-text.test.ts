import { describe, expect, it } from "vitest";
import { failureCell, failureFact, failureKindCell } from "./failure-text";

const tampered = { kind: "agent", stage: "eval", label: "tampered", message: "canary c7 lied" } as const;
const plain = { kind: "sandbox", stage: "init", message: "no bwrap" } as const;
const misconfigured = {
  kind: "sandbox",
  stage: "init",
  label: "misconfigured",
  message: 'MCP server "db" exited with code 127',
} as const;

describe("failure text", () => {
  it("shows a failure's label beside its kind, and nothing extra when it has none", () => {
    expect(failureCell(tampered)).toBe("agent in eval · tampered");
    expect(failureCell({ ...plain, label: null })).toBe("sandbox in init");
    expect(failureCell(null)).toBe("—");
    expect(failureKindCell(tampered)).toBe("agent · tampered");
    expect(failureKindCell(plain)).toBe("sandbox");
  });

  it("says on the trajectory page what a tampered failure means", () => {
    expect(failureFact(tampered)).toMatch(/^agent \(tampered — grade voided: .*canary.*\): canary c7 lied$/);
    expect(failureFact(plain)).toBe("sandbox: no bwrap");
    expect(failureFact(null)).toBe("—");
  });

  it("says a misconfigured failure is the job's own configuration, not the host", () => {
    expect(failureCell(misconfigured)).toBe("sandbox in init · misconfigured");
    expect(failureKindCell(misconfigured)).toBe("sandbox · misconfigured");
    expect(failureFact(misconfigured)).toMatch(
      /^sandbox \(misconfigured — the job's own configuration failed, not the host .*not retried.*\): MCP server "db" exited with code 127$/,
    );
  });
});
