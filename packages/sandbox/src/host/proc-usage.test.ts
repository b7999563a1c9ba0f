import { describe, expect, it } from "vitest";
import { accountCpu, EMPTY_CPU_ACCOUNT, type ProcSample, parseProcSample, totalRssBytes } from "./proc-usage";

/** A /proc/<pid>/stat line with the given fields (comm may hold spaces and parentheses). */
function statLine(
  pid: number,
  comm: string,
  fields: { ppid: number; ut: number; st: number; cut: number; cst: number; start: number },
): string {
  const rest = [
    "S",
    fields.ppid,
    1,
    1,
    0,
    -1,
    4194560,
    10,
    0,
    0,
    0,
    fields.ut,
    fields.st,
    fields.cut,
    fields.cst,
    20,
    0,
    1,
    0,
    fields.start,
    1000,
    200,
  ];
  return `${pid} (${comm}) ${rest.join(" ")} 0 0 0\n`;
}

function sample(pid: number, ppid: number, ownTicks: number, reapedTicks = 0, start = 1): ProcSample {
  return { identity: `${pid}:${start}`, pid, ppid, ownTicks, reapedTicks, rssBytes: 0 };
}

describe("parseProcSample", () => {
  it("reads ppid, own and reaped CPU ticks, start time and VmRSS past an awkward command name", () => {
    const stat = statLine(42, "evil) 1 2 (x", { ppid: 7, ut: 150, st: 50, cut: 30, cst: 20, start: 999 });
    const parsed = parseProcSample(42, stat, "Name:\tx\nVmRSS:\t  2048 kB\n");
    expect(parsed).toEqual({
      identity: "42:999",
      pid: 42,
      ppid: 7,
      ownTicks: 200,
      reapedTicks: 50,
      rssBytes: 2_097_152,
    });
  });

  it("counts a zombie (no VmRSS) as no memory and refuses text that is not a stat line", () => {
    expect(
      parseProcSample(3, statLine(3, "z", { ppid: 1, ut: 1, st: 1, cut: 0, cst: 0, start: 5 }), "")?.rssBytes,
    ).toBe(0);
    expect(parseProcSample(3, "garbage")).toBeUndefined();
  });

  it("sums RSS", () => {
    expect(
      totalRssBytes([
        { ...sample(1, 0, 0), rssBytes: 10 },
        { ...sample(2, 1, 0), rssBytes: 5 },
      ]),
    ).toBe(15);
  });
});

describe("accountCpu", () => {
  it("sums own and reaped CPU of live processes", () => {
    const account = accountCpu(EMPTY_CPU_ACCOUNT, [sample(1, 0, 10, 5), sample(2, 1, 100)]);
    expect(account.totalTicks).toBe(115);
  });

  it("counts a child waited for once, in its reaper", () => {
    const first = accountCpu(EMPTY_CPU_ACCOUNT, [sample(1, 0, 10), sample(2, 1, 100)]);
    const second = accountCpu(first, [sample(1, 0, 10, 120)]);
    expect(second.totalTicks).toBe(130);
    expect(second.lostTicks).toBe(0);
  });

  it("keeps the CPU of a child whose parent discarded it (SIGCHLD ignored)", () => {
    const first = accountCpu(EMPTY_CPU_ACCOUNT, [sample(1, 0, 10), sample(2, 1, 100), sample(3, 1, 50)]);
    const second = accountCpu(first, [sample(1, 0, 10), sample(3, 1, 80)]);
    expect(second.lostTicks).toBe(100);
    expect(second.totalTicks).toBe(190);
  });

  it("looks past ended parents for the reaper, and keeps what no watched process reaps", () => {
    const first = accountCpu(EMPTY_CPU_ACCOUNT, [
      sample(1, 0, 0),
      sample(2, 1, 5),
      sample(3, 2, 40),
      sample(9, 77, 30),
    ]);
    // 2 waited for 3 and ended; 1 waited for 2 (5 + 40 + a little more). 9's parent is not watched.
    const second = accountCpu(first, [sample(1, 0, 0, 50)]);
    expect(second.lostTicks).toBe(30);
    expect(second.totalTicks).toBe(80);
  });

  it("never decreases, and treats a reused pid as a new process", () => {
    const first = accountCpu(EMPTY_CPU_ACCOUNT, [sample(1, 0, 10), sample(2, 1, 100, 0, 1)]);
    const second = accountCpu(first, [sample(1, 0, 10, 100), sample(2, 1, 3, 0, 2)]);
    expect(second.totalTicks).toBe(113);
    expect(accountCpu(second, []).totalTicks).toBeGreaterThanOrEqual(113);
  });
});
