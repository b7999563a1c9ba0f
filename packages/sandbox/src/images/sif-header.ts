/**
 * The SIF container format (Singularity/Apptainer images), read without siftool: a 128-byte
 * global header, then a table of fixed-size descriptors; the root filesystem is the data object
 * of type "partition" whose partition type is the primary system one. All integers little-endian.
 * Layout from the format's reference implementation (github.com/apptainer/sif, `pkg/sif`).
 */

const SIF_MAGIC = "SIF_MAGIC";
const MAGIC_OFFSET = 32;
/** Global header: launch script (32), magic (10), version (3), arch (3), uuid (16), 8 int64s. */
export const SIF_HEADER_BYTES = 128;
const DESCRIPTOR_BYTES = 585;
const DATA_PARTITION = 0x4004;
const FS_SQUASH = 1;
const PART_PRIM_SYS = 2;

/** Where the image's root filesystem (a squashfs) lies in the file, in bytes. */
export interface SifRootPartition {
  offset: number;
  size: number;
}

/** Whether `head` (the file's first bytes) starts like a SIF file. */
export function isSifHeader(head: Buffer): boolean {
  return head.subarray(MAGIC_OFFSET, MAGIC_OFFSET + SIF_MAGIC.length).toString("latin1") === SIF_MAGIC;
}

/** Where the descriptor table is and how long it is, from the global header. */
export function sifDescriptorTable(header: Buffer): { offset: number; length: number } {
  if (header.length < SIF_HEADER_BYTES || !isSifHeader(header)) throw new Error("not a SIF file");
  return {
    offset: Number(header.readBigInt64LE(96)),
    length: Number(header.readBigInt64LE(104)),
  };
}

/**
 * The primary system partition (a squashfs) among the descriptors; throws a sentence naming
 * what the file holds instead when there is none (an ext3 or overlay-only SIF).
 */
export function findSifRootPartition(descriptors: Buffer): SifRootPartition {
  const seen: string[] = [];
  for (let at = 0; at + DESCRIPTOR_BYTES <= descriptors.length; at += DESCRIPTOR_BYTES) {
    const dataType = descriptors.readInt32LE(at);
    const isUsed = descriptors.readUInt8(at + 4) !== 0;
    if (!isUsed) continue;
    if (dataType !== DATA_PARTITION) {
      seen.push(`data type 0x${dataType.toString(16)}`);
      continue;
    }
    const extra = at + 201;
    const fsType = descriptors.readInt32LE(extra);
    const partType = descriptors.readInt32LE(extra + 4);
    seen.push(`partition (fs ${fsType}, type ${partType})`);
    if (partType !== PART_PRIM_SYS) continue;
    if (fsType !== FS_SQUASH) {
      throw new Error(
        `the SIF's system partition is not squashfs (fs type ${fsType}); only squashfs is supported`,
      );
    }
    return {
      offset: Number(descriptors.readBigInt64LE(at + 17)),
      size: Number(descriptors.readBigInt64LE(at + 25)),
    };
  }
  throw new Error(
    `the SIF file has no squashfs system partition (it holds: ${seen.join(", ") || "nothing"})`,
  );
}
