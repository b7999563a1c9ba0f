import { describe, expect, it } from "vitest";
import { groupLimitHits, limitFamilyOf } from "./limit-hits";

describe("limitFamilyOf", () => {
  it("maps the runtimes' limit kinds to pids, memory, time and disk", () => {
    expect(limitFamilyOf("processes")).toBe("pids");
    expect(limitFamilyOf("memory")).toBe("memory");
    expect(limitFamilyOf("wallTime")).toBe("time");
    expect(limitFamilyOf("cpuTotal")).toBe("time");
    expect(limitFamilyOf("disk")).toBe("disk");
    expect(limitFamilyOf("fileSize")).toBe("disk");
    expect(limitFamilyOf("output")).toBe("other");
  });
});

describe("groupLimitHits", () => {
  it("sums kinds per family, keeps the kinds, and lists every family even without hits", () => {
    const rows = groupLimitHits({ wallTime: 2, cpuTotal: 1, processes: 4, output: 1 });
    expect(rows).toEqual([
      { family: "pids", hits: 4, kinds: [{ kind: "processes", hits: 4 }] },
      { family: "memory", hits: 0, kinds: [] },
      {
        family: "time",
        hits: 3,
        kinds: [
          { kind: "cpuTotal", hits: 1 },
          { kind: "wallTime", hits: 2 },
        ],
      },
      { family: "disk", hits: 0, kinds: [] },
      { family: "other", hits: 1, kinds: [{ kind: "output", hits: 1 }] },
    ]);
  });
});
