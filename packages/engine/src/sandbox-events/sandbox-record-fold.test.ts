import { describe, expect, it } from "vitest";
import type { SandboxEventRecord } from "../ports/sandbox-event-store.port";
import { foldSandboxEvents, summarizeSandboxes } from "./sandbox-record-fold";

function event(
  sandboxId: string,
  type: string,
  atMs: number,
  detail: Record<string, unknown> = {},
  state: SandboxEventRecord["state"] = "ready",
): SandboxEventRecord {
  return { sandboxId, jobId: "job_1", hostId: "node-1:42", type, state, detail, atMs };
}

describe("foldSandboxEvents", () => {
  it("keeps timings, the first limit hit, the exit signal and stderr tail of a crash", () => {
    const rows = foldSandboxEvents(new Map(), [
      event("sb1", "created", 1_000, { runtime: "bubblewrap" }, "starting"),
      event("sb1", "ready", 1_040, { readyMs: 38.5 }),
      event("sb1", "limit_hit", 1_500, { limit: "processes", tool: "bash" }),
      event("sb1", "limit_hit", 1_600, { limit: "output", tool: "bash" }),
      event(
        "sb1",
        "crashed",
        2_000,
        { exitCode: null, signal: "SIGKILL", stderrTail: "x".repeat(5_000) },
        "failed",
      ),
      event("sb1", "closed", 2_100, { reason: "crashed" }, "failed"),
    ]);
    expect(rows.get("sb1")).toMatchObject({
      runtime: "bubblewrap",
      hostId: "node-1:42",
      jobId: "job_1",
      state: "failed",
      createdAtMs: 1_000,
      readyMs: 38.5,
      closedAtMs: 2_100,
      lifetimeMs: 1_100,
      closeReason: "crashed",
      limitKind: "processes",
      limitHits: 2,
      exitCode: null,
      exitSignal: "SIGKILL",
    });
    expect(rows.get("sb1")?.stderrTail).toHaveLength(1_000);
  });

  it("continues rows stored by an earlier batch", () => {
    const first = foldSandboxEvents(new Map(), [event("sb2", "created", 10, {}, "starting")]);
    const second = foldSandboxEvents(first, [event("sb2", "closed", 60, { reason: "wall_time" }, "closed")]);
    expect(second.get("sb2")).toMatchObject({ createdAtMs: 10, lifetimeMs: 50, closeReason: "wall_time" });
  });

  it("summarizes states, close reasons (a cancelled start apart from failed ones), limits and timings", () => {
    const rows = foldSandboxEvents(new Map(), [
      event("a", "created", 0, {}, "starting"),
      event("a", "ready", 10, { readyMs: 10 }),
      event("a", "closed", 110, { reason: "closed" }, "closed"),
      event("b", "created", 0, {}, "starting"),
      event("b", "start_failed", 5, { error: "bwrap: No permission" }, "failed"),
      event("b", "closed", 6, { reason: "start_failed", error: "bwrap: No permission" }, "failed"),
      event("c", "created", 0, {}, "starting"),
      event("c", "ready", 30, { readyMs: 30 }),
      event("d", "created", 0, {}, "starting"),
      event("d", "start_cancelled", 8, {}, "closed"),
      event("d", "closed", 9, { reason: "cancelled" }, "closed"),
    ]);
    expect(summarizeSandboxes([...rows.values()], ["memory", "memory", "wallTime"])).toEqual({
      sandboxes: 4,
      byState: { closed: 2, failed: 1, ready: 1 },
      byCloseReason: { closed: 1, start_failed: 1, cancelled: 1 },
      limitHits: { memory: 2, wallTime: 1 },
      crashed: 0,
      startFailed: 1,
      cancelled: 1,
      live: 1,
      meanReadyMs: 20,
      meanLifetimeMs: 41.67,
    });
    expect(rows.get("b")?.error).toBe("bwrap: No permission");
  });
});
