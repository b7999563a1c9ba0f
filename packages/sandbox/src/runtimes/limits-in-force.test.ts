import { describe, expect, it } from "vitest";
import { describeLimitsInForce, type RuntimeLimitFacts } from "./limits-in-force";
import { SANDBOX_MEMORY_HEADROOM_BYTES } from "./runtime-options";

const NO_CGROUPS: RuntimeLimitFacts = {
  cgroups: { pids: false, memory: false },
  hasProcessRlimit: true,
  shmBytes: 1,
  tmpBytes: 2,
  toolJail: "on",
};

describe("describeLimitsInForce", () => {
  it("names cgroups where the runtime has them", () => {
    const report = describeLimitsInForce(
      "bubblewrap",
      { maxProcesses: 10, memoryBytes: 100 },
      { ...NO_CGROUPS, cgroups: { pids: true, memory: true } },
    );
    expect(report.processes).toEqual({ enforcedBy: "cgroup", max: 10 });
    expect(report.memory).toEqual({ enforcedBy: "cgroup", bytes: 100 + SANDBOX_MEMORY_HEADROOM_BYTES });
  });

  it("falls back to rlimits and the watchdog without cgroups", () => {
    const report = describeLimitsInForce(
      "bubblewrap",
      { maxProcesses: 10, memoryBytes: 100, totalCpuSec: 5, cpuTimeSec: 3 },
      { ...NO_CGROUPS, workspaceSizeBytes: 50 },
    );
    expect(report).toMatchObject({
      processes: { enforcedBy: "rlimit" },
      memory: { enforcedBy: "watchdog" },
      cpuTotal: { enforcedBy: "watchdog", seconds: 5 },
      disk: { enforcedBy: "watchdog", bytes: 50 },
      perProcess: { cpuSec: 3, addressSpaceBytes: 100, fileBytes: 50 },
    });
  });

  it("says none where nothing bounds a resource", () => {
    const report = describeLimitsInForce(
      "local",
      {},
      { ...NO_CGROUPS, hasProcessRlimit: false, toolJail: "off" },
    );
    expect(report).toMatchObject({
      processes: { enforcedBy: "none", max: null },
      memory: { enforcedBy: "none", bytes: null },
      cpuTotal: { enforcedBy: "none", seconds: null },
      disk: { enforcedBy: "none", bytes: null },
    });
  });
});
