import { describe, expect, it } from "vitest";
import { HealthConditions } from "../src/health-conditions";

describe("HealthConditions", () => {
  it("keeps the time of the last change of state and stops work only for conditions that say so", () => {
    let nowMs = 1_000;
    const conditions = new HealthConditions(() => nowMs);
    conditions.report("store", { ok: false, reason: "PostgreSQL unreachable" });
    nowMs = 2_000;
    conditions.report("store", { ok: false });
    expect(conditions.get("store")).toEqual({
      ok: false,
      reason: "PostgreSQL unreachable",
      sinceMs: 1_000,
      stopsWork: false,
    });
    expect(conditions.isUnhealthy()).toBe(false);
    conditions.report("sandboxes", {
      ok: false,
      reason: "5 sandbox starts failed in a row",
      stopsWork: true,
    });
    expect(conditions.isUnhealthy()).toBe(true);
    // What the heartbeat stores for workers.list: only the conditions that stop work.
    expect(conditions.unhealthyReason()).toBe("sandboxes: 5 sandbox starts failed in a row");
    nowMs = 3_000;
    conditions.report("sandboxes", { ok: true });
    expect(conditions.get("sandboxes")).toMatchObject({
      ok: true,
      reason: null,
      sinceMs: 3_000,
      stopsWork: true,
    });
    expect(conditions.isUnhealthy()).toBe(false);
    expect(conditions.unhealthyReason()).toBeNull();
    expect(conditions.list().map((condition) => condition.name)).toEqual(["store", "sandboxes"]);
  });
});
