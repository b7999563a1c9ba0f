import { readFileSync, readlinkSync, statfsSync, statSync } from "node:fs";

/** A tmpfs mount as one line of /proc/<pid>/mountinfo shows it. */
export interface TmpfsMount {
  /** `major:minor` of the file system: the same tmpfs mounted twice has one device. */
  device: string;
  /** Where it is mounted, as the process sees its root (octal escapes decoded). */
  mountPoint: string;
}

/** The tmpfs mounts of a mountinfo text (`id parent major:minor root point options … - type …`). */
export function parseTmpfsMounts(mountinfo: string): TmpfsMount[] {
  const mounts: TmpfsMount[] = [];
  for (const line of mountinfo.split("\n")) {
    const split = line.indexOf(" - ");
    if (split === -1) continue;
    const fsType = line.slice(split + 3).split(" ")[0];
    if (fsType !== "tmpfs") continue;
    const fields = line.slice(0, split).split(" ");
    const device = fields[2];
    const mountPoint = fields[4];
    if (device === undefined || mountPoint === undefined) continue;
    mounts.push({ device, mountPoint: decodeMountPath(mountPoint) });
  }
  return mounts;
}

/** mountinfo writes space, tab, newline and backslash as `\ooo`. */
function decodeMountPath(escaped: string): string {
  return escaped.replace(/\\([0-7]{3})/g, (_match, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/** The kernel's `new_encode_dev`: how `stat` reports `major:minor` as one number. */
export function encodeDevice(device: string): number {
  const [major = 0, minor = 0] = device.split(":").map(Number);
  return (minor & 0xff) | (major << 8) | ((minor & ~0xff) << 12);
}

/**
 * Bytes held in every tmpfs mounted where the given processes live: each mount namespace is read
 * once (the sandbox's, each tool jail's), each file system counted once, measured by `statfs`
 * through /proc/<pid>/root. tmpfs files are memory no process's RSS shows (a file in /tmp or
 * /dev/shm outlives its writer), so the watchdog adds this to the sandbox's memory. A mount whose
 * path does not lead to its own device (covered by another mount) is not measured.
 */
export function measureTmpfsBytes(pids: readonly number[]): number {
  const namespaces = new Set<string>();
  const devices = new Set<string>();
  let bytes = 0;
  for (const pid of pids) {
    let mounts: TmpfsMount[];
    try {
      const namespace = readlinkSync(`/proc/${pid}/ns/mnt`);
      if (namespaces.has(namespace)) continue;
      namespaces.add(namespace);
      mounts = parseTmpfsMounts(readFileSync(`/proc/${pid}/mountinfo`, "utf8"));
    } catch {
      continue; // Ended between listing and reading.
    }
    for (const mount of mounts) {
      if (devices.has(mount.device)) continue;
      const path = `/proc/${pid}/root${mount.mountPoint}`;
      try {
        if (statSync(path).dev !== encodeDevice(mount.device)) continue;
        const fs = statfsSync(path);
        devices.add(mount.device);
        bytes += (fs.blocks - fs.bfree) * fs.bsize;
      } catch {
        // The process ended, or the path is gone: the next sample sees what is left.
      }
    }
  }
  return bytes;
}
