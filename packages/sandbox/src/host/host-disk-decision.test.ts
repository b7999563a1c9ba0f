import { describe, expect, it } from "vitest";
import { blameFullHostDisk } from "./host-disk-decision";
import type { HostDiskSample } from "./host-disk-monitor";

const MIB = 1024 ** 2;
const full: HostDiskSample = {
  freeBytes: 0,
  totalBytes: 512 * MIB,
  usedBytes: 512 * MIB,
  freeInodes: 1_000,
  usedInodes: 9_000,
  isFull: true,
};
const ws = (bytes: number, entries = 10) => ({ bytes, entries });

describe("blameFullHostDisk", () => {
  it("blames the host when the workspace holds a small share of the disk, within its quota", () => {
    const fault = blameFullHostDisk({ sample: full, workspace: ws(2 * MIB), workspaceSizeBytes: 4096 * MIB });
    expect(fault.blame).toBe("host");
    expect(fault.reason).toMatch(/no space left on the host's disk .*0\.0 MiB free of 512\.0 MiB/);
  });

  it("blames the policy whose workspace is over its quota, however full the disk is of others' files", () => {
    const fault = blameFullHostDisk({ sample: full, workspace: ws(10 * MIB), workspaceSizeBytes: 8 * MIB });
    expect(fault).toMatchObject({ blame: "policy" });
    expect(fault.reason).toMatch(/workspace grew to 10\.0 MiB, over its limit of 8\.0 MiB/);
  });

  it("blames the policy whose workspace alone holds half of what the disk has in use", () => {
    expect(blameFullHostDisk({ sample: full, workspace: ws(256 * MIB) }).blame).toBe("policy");
    expect(blameFullHostDisk({ sample: full, workspace: ws(255 * MIB) }).blame).toBe("host");
  });

  it("judges a disk out of inodes by the files the workspace holds", () => {
    const noInodes = {
      ...full,
      freeBytes: 100 * MIB,
      usedBytes: 412 * MIB,
      freeInodes: 0,
      usedInodes: 10_000,
    };
    expect(blameFullHostDisk({ sample: noInodes, workspace: ws(MIB) }).reason).toMatch(/no inodes left/);
    const filler = blameFullHostDisk({ sample: noInodes, workspace: ws(MIB, 5_000) });
    expect(filler).toMatchObject({ blame: "policy" });
    expect(filler.reason).toMatch(/used up the host's disk's inodes: it held 5000 of the 10000 files/);
  });
});
