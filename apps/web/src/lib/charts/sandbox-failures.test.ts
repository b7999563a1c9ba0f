import { describe, expect, it } from "vitest";
import { recentSandboxFailures, type TSandboxEventLike } from "./sandbox-failures";

function event(
  sandboxId: string,
  type: string,
  atMs: number,
  detail: Record<string, unknown> | null = null,
): TSandboxEventLike {
  return { sandboxId, jobId: `job-${sandboxId}`, hostId: "node-1:10", type, detail, atMs };
}

describe("recentSandboxFailures", () => {
  it("gives one row per failed sandbox with its reason, newest first; normal closes are no failure", () => {
    const rows = recentSandboxFailures([
      event("ok", "closed", 100, { reason: "closed" }),
      event("crash", "crashed", 200, {
        cause: "launcher exited",
        exitCode: 137,
        signal: "SIGKILL",
        stderrTail: "starting\nKilled\n",
      }),
      event("crash", "closed", 210, { reason: "crashed" }),
      event("slow", "closed", 300, { reason: "wall_time" }),
      event("nostart", "start_failed", 150, { error: "bwrap: No permissions to create new namespace" }),
      event("ok", "ready", 90, { readyMs: 12 }),
    ]);
    expect(rows).toEqual([
      {
        sandboxId: "slow",
        jobId: "job-slow",
        hostId: "node-1:10",
        atMs: 300,
        kind: "wall_time",
        reason: "closed by its wall_time limit",
      },
      {
        sandboxId: "crash",
        jobId: "job-crash",
        hostId: "node-1:10",
        atMs: 200,
        kind: "crashed",
        reason: "launcher exited, exit code 137, signal SIGKILL, stderr: Killed",
      },
      {
        sandboxId: "nostart",
        jobId: "job-nostart",
        hostId: "node-1:10",
        atMs: 150,
        kind: "start_failed",
        reason: "bwrap: No permissions to create new namespace",
      },
    ]);
  });

  it("keeps at most `limit` rows and says so when an event carries no detail", () => {
    const rows = recentSandboxFailures(
      [event("a", "crashed", 1), event("b", "start_failed", 2), event("c", "crashed", 3)],
      2,
    );
    expect(rows.map((row) => [row.sandboxId, row.reason])).toEqual([
      ["c", "crashed (no detail recorded)"],
      ["b", "failed to start (no detail recorded)"],
    ]);
  });
});
