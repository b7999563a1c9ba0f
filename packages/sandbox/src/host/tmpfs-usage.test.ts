import { describe, expect, it } from "vitest";
import { encodeDevice, parseTmpfsMounts } from "./tmpfs-usage";

// A tool jail's mountinfo, as bwrap leaves it (abridged).
const MOUNTINFO = [
  "159 47 0:41 /newroot / ro,nosuid,nodev,relatime - tmpfs tmpfs rw,uid=65534,gid=65534",
  "173 159 0:43 / /dev ro,nosuid,nodev,relatime - tmpfs tmpfs rw,mode=755,uid=65534,gid=65534",
  "174 173 0:6 /null /dev/null rw,nosuid,nodev,relatime - devtmpfs devtmpfs rw,size=12334760k,mode=755",
  "181 173 0:45 / /dev/shm rw,nosuid,nodev,relatime - tmpfs tmpfs rw,size=262144k,mode=755",
  "151 144 0:50 / /dev/pts rw,nosuid,noexec,relatime - devpts devpts rw,mode=620,ptmxmode=666",
  "200 182 0:56 / /tmp rw,nosuid,nodev,relatime shared:5 - tmpfs tmpfs rw,size=1048576k,mode=755",
  "201 184 0:57 / /run/my\\040dir rw,nosuid,nodev,relatime - tmpfs none rw",
  "69 68 254:0 /usr /usr ro,nosuid,nodev,relatime - ext4 /dev/vda rw,discard",
  "",
].join("\n");

describe("parseTmpfsMounts", () => {
  it("lists only tmpfs mounts, with their device and decoded mount point", () => {
    expect(parseTmpfsMounts(MOUNTINFO)).toEqual([
      { device: "0:41", mountPoint: "/" },
      { device: "0:43", mountPoint: "/dev" },
      { device: "0:45", mountPoint: "/dev/shm" },
      { device: "0:56", mountPoint: "/tmp" },
      { device: "0:57", mountPoint: "/run/my dir" },
    ]);
  });

  it("encodes a device as stat reports it", () => {
    expect(encodeDevice("0:45")).toBe(45);
    expect(encodeDevice("254:0")).toBe(254 << 8);
    expect(encodeDevice("0:300")).toBe((300 & 0xff) | ((300 & ~0xff) << 12));
  });
});
