import { describe, expect, it } from "vitest";
import { MIN_TMPFS_BYTES, sizeTmpfsMounts } from "./tmpfs-sizes";

const MIB = 1024 ** 2;
const CONFIGURED = { tmpBytes: 1024 * MIB, shmBytes: 256 * MIB };

describe("sizeTmpfsMounts", () => {
  it("keeps the configured sizes when /tmp, a command's /tmp and /dev/shm fit in the bound", () => {
    expect(sizeTmpfsMounts(CONFIGURED, 4096 * MIB + 128 * MIB)).toEqual({
      tmpBytes: 1024 * MIB,
      execTmpBytes: 1024 * MIB,
      shmBytes: 256 * MIB,
    });
    expect(sizeTmpfsMounts(CONFIGURED, undefined).tmpBytes).toBe(1024 * MIB);
  });

  it("cuts all three by one factor so that together they fit in a small bound", () => {
    const sizes = sizeTmpfsMounts(CONFIGURED, 640 * MIB);
    expect(sizes.tmpBytes + sizes.execTmpBytes + sizes.shmBytes).toBeLessThanOrEqual(640 * MIB);
    expect(sizes.tmpBytes).toBe(sizes.execTmpBytes);
    expect(sizes.tmpBytes / sizes.shmBytes).toBeCloseTo(4, 1);
    expect(sizes.tmpBytes % 4096).toBe(0);
  });

  it("never cuts a mount below the minimum", () => {
    const sizes = sizeTmpfsMounts(CONFIGURED, 8 * MIB);
    expect(sizes).toEqual({
      tmpBytes: MIN_TMPFS_BYTES,
      execTmpBytes: MIN_TMPFS_BYTES,
      shmBytes: MIN_TMPFS_BYTES,
    });
  });
});
