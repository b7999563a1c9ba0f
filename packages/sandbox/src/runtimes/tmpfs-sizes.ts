/** Sizes of the memory-backed (tmpfs) mounts of one bubblewrap sandbox, in bytes. */
export interface TmpfsSizes {
  /** The sandbox's /tmp (the agent's shell and interpreter share it). */
  tmpBytes: number;
  /** The private /tmp of each non-interactive command (a harness, a handler's INIT/EVAL). */
  execTmpBytes: number;
  /** The sandbox's /dev/shm (every jail binds the same one). */
  shmBytes: number;
}

/** Smallest size any of the mounts is cut to, in bytes: small programs still find room. */
export const MIN_TMPFS_BYTES = 4 * 1024 ** 2;

/**
 * Sizes the sandbox's tmpfs mounts so that what they can hold together fits in the sandbox's
 * memory bound. A file in tmpfs is memory the host cannot reclaim (no swap here) and no RSS shows
 * it, so without this a sandbox bounded to 640 MiB held 1,250 MiB in /tmp and /dev/shm. Counted
 * are /tmp, /dev/shm and one command's private /tmp (a harness runs as one such command beside
 * the agent's shell): when `2 × tmp + shm` exceeds `boundBytes` all three shrink by the same
 * factor. With the default 4 GiB memory limit nothing shrinks (1 GiB + 1 GiB + 256 MiB). A
 * sandbox without a memory bound keeps the configured sizes.
 */
export function sizeTmpfsMounts(
  configured: { tmpBytes: number; shmBytes: number },
  boundBytes: number | undefined,
): TmpfsSizes {
  const { tmpBytes, shmBytes } = configured;
  const total = 2 * tmpBytes + shmBytes;
  if (boundBytes === undefined || total <= boundBytes) {
    return { tmpBytes, execTmpBytes: tmpBytes, shmBytes };
  }
  const scale = boundBytes / total;
  const cut = (bytes: number) => Math.max(MIN_TMPFS_BYTES, pageFloor(bytes * scale));
  const tmp = cut(tmpBytes);
  return { tmpBytes: tmp, execTmpBytes: tmp, shmBytes: cut(shmBytes) };
}

/** tmpfs sizes are whole pages; rounding down keeps the sum within the bound. */
function pageFloor(bytes: number): number {
  return Math.floor(bytes / 4096) * 4096;
}
