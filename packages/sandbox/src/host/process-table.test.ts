import { describe, expect, it } from "vitest";
import {
  type ProcessTable,
  ProcessTableSnapshots,
  processTreeIn,
  sandboxProcessesIn,
  scanProcessTable,
} from "./process-table";

/** A table of `[pid, ppid, startTicks]` rows, as a scan of /proc would build it. */
function tableOf(rows: ReadonlyArray<[number, number, string]>): ProcessTable {
  const identities = new Map<number, string>();
  const children = new Map<number, number[]>();
  for (const [pid, ppid, startTicks] of rows) {
    identities.set(pid, `${pid}:${startTicks}`);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  return { identities, children };
}

/** Snapshots over a scripted clock and a scan that hands out numbered tables and counts itself. */
function scripted(maxAgeMs: number) {
  const clock = { nowMs: 0 };
  let scans = 0;
  const snapshots = new ProcessTableSnapshots({
    maxAgeMs,
    now: () => clock.nowMs,
    scan: () => {
      scans += 1;
      return tableOf([[scans, 0, "1"]]);
    },
  });
  return {
    snapshots,
    clock,
    scans: () => scans,
    scanNumber: (table: ProcessTable) => [...table.identities.keys()][0],
  };
}

describe("ProcessTableSnapshots", () => {
  it("serves every recent() within the window from one scan, then scans again", () => {
    const { snapshots, clock, scans, scanNumber } = scripted(250);
    const first = snapshots.recent();
    clock.nowMs = 100;
    const second = snapshots.recent();
    clock.nowMs = 250;
    const third = snapshots.recent();
    expect(scans()).toBe(1);
    expect(second).toBe(first);
    expect(third).toBe(first);
    clock.nowMs = 251;
    const fourth = snapshots.recent();
    expect(scans()).toBe(2);
    expect(scanNumber(fourth)).toBe(2);
  });

  it("scans on every fresh() call, and recent() then reuses the freshest table", () => {
    const { snapshots, clock, scans, scanNumber } = scripted(250);
    snapshots.recent();
    const killScans = [snapshots.fresh(), snapshots.fresh()].map(scanNumber);
    expect(killScans).toEqual([2, 3]);
    clock.nowMs = 200;
    expect(scanNumber(snapshots.recent())).toBe(3);
    expect(scans()).toBe(3);
  });
});

describe("ProcessTableSnapshots.since", () => {
  it("scans when nothing was scanned after the mark, and shares a scan taken after it", () => {
    const { snapshots, scans, scanNumber } = scripted(250);
    snapshots.recent();
    const teardownA = snapshots.mark();
    const teardownB = snapshots.mark();
    // The scan before both marks is too old for either: A scans, B reuses A's scan.
    expect(scanNumber(snapshots.since(teardownA))).toBe(2);
    expect(scanNumber(snapshots.since(teardownB))).toBe(2);
    expect(scans()).toBe(2);
    const afterA = snapshots.mark();
    expect(scanNumber(snapshots.since(afterA))).toBe(3);
    expect(scanNumber(snapshots.since(teardownB))).toBe(3);
    expect(scans()).toBe(3);
  });
});

describe("sandboxProcessesIn", () => {
  const table = tableOf([
    [1, 0, "5"],
    [10, 1, "7"],
    [11, 10, "9"],
  ]);

  it("lists the launcher's tree with identities, then cgroup pids (read now) without, each pid once", () => {
    expect(sandboxProcessesIn(table, 10, [11, 30])).toEqual([
      { pid: 10, identity: "10:7" },
      { pid: 11 },
      { pid: 30 },
    ]);
    expect(sandboxProcessesIn(table, undefined, [30])).toEqual([{ pid: 30 }]);
  });
});

describe("processTreeIn", () => {
  const table = tableOf([
    [1, 0, "5"],
    [10, 1, "7"],
    [11, 10, "9"],
    [12, 10, "9"],
    [13, 11, "12"],
    [20, 1, "8"],
  ]);

  it("lists the root, then its descendants breadth-first, and nothing outside its tree", () => {
    expect(processTreeIn(table, 10)).toEqual([10, 11, 12, 13]);
    expect(processTreeIn(table, 20)).toEqual([20]);
  });

  it("lists nothing for a root the table does not hold (ended before the scan)", () => {
    expect(processTreeIn(table, 99)).toEqual([]);
  });

  it("finds this process and its identity in a real scan of /proc", () => {
    const scanned = scanProcessTable();
    expect(processTreeIn(scanned, process.pid)[0]).toBe(process.pid);
    expect(scanned.identities.get(process.pid)).toMatch(new RegExp(`^${process.pid}:\\d+$`));
  });
});
