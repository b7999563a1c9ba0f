import { describe, expect, it } from "vitest";
import { findLimitHit } from "./watchdog-decision";

const MIB = 1024 ** 2;

describe("findLimitHit", () => {
  it("finds nothing under the limits or without limits", () => {
    expect(
      findLimitHit({ cpuSec: 1, rssBytes: 10 * MIB, tmpfsBytes: 0 }, { totalCpuSec: 2, rssBytes: 20 * MIB }),
    ).toBeUndefined();
    expect(findLimitHit({ cpuSec: 1e6, rssBytes: 1e12, tmpfsBytes: 1e12 }, {})).toBeUndefined();
  });

  it("names CPU over the total, with a sentence and the numbers", () => {
    const hit = findLimitHit({ cpuSec: 2.5, rssBytes: 0, tmpfsBytes: 0 }, { totalCpuSec: 2 });
    expect(hit).toMatchObject({ limit: "cpuTotal", detail: { cpuSec: 2.5, limitSec: 2 } });
    expect(hit?.reason).toMatch(/2\.5 CPU seconds in total, over its limit of 2/);
  });

  it("puts memory first when several limits are exceeded", () => {
    const hit = findLimitHit(
      { cpuSec: 9, rssBytes: 300 * MIB, tmpfsBytes: 0 },
      { totalCpuSec: 2, rssBytes: 256 * MIB },
    );
    expect(hit).toMatchObject({ limit: "memory", detail: { rssBytes: 300 * MIB, limitBytes: 256 * MIB } });
  });

  it("counts tmpfs files as the sandbox's memory: neither part alone is over, the sum is", () => {
    const limits = { rssBytes: 640 * MIB };
    expect(findLimitHit({ cpuSec: 0, rssBytes: 400 * MIB, tmpfsBytes: 200 * MIB }, limits)).toBeUndefined();
    const hit = findLimitHit({ cpuSec: 0, rssBytes: 400 * MIB, tmpfsBytes: 250 * MIB }, limits);
    expect(hit).toMatchObject({
      limit: "memory",
      detail: { rssBytes: 400 * MIB, tmpfsBytes: 250 * MIB, limitBytes: 640 * MIB },
    });
    expect(hit?.reason).toMatch(
      /used 650\.0 MiB of memory together \(250\.0 MiB of it files in \/tmp, \/dev\/shm/,
    );
  });

  it("judges the workspace by its size, and by a walk cut short at the entry bound", () => {
    const limits = { workspaceSizeBytes: 64 * MIB, workspaceMaxEntries: 1_000 };
    const usage = (bytes: number, isComplete: boolean) => ({
      cpuSec: 0,
      rssBytes: 0,
      tmpfsBytes: 0,
      workspace: { bytes, entries: 1_000, isComplete },
    });
    expect(findLimitHit(usage(10 * MIB, true), limits)).toBeUndefined();
    expect(findLimitHit(usage(65 * MIB, true), limits)?.limit).toBe("disk");
    expect(findLimitHit(usage(1 * MIB, false), limits)?.reason).toMatch(/more than 1000 files/);
  });
});
