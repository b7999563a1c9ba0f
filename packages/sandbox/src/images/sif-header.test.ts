import { describe, expect, it } from "vitest";
import { findSifRootPartition, isSifHeader, SIF_HEADER_BYTES, sifDescriptorTable } from "./sif-header";

const DESCRIPTOR_BYTES = 585;

/** A descriptor as siftool writes it: type, used flag, offset and size, partition fs/type in `extra`. */
function descriptor(fields: {
  dataType: number;
  offset: number;
  size: number;
  fsType?: number;
  partType?: number;
}): Buffer {
  const buffer = Buffer.alloc(DESCRIPTOR_BYTES);
  buffer.writeInt32LE(fields.dataType, 0);
  buffer.writeUInt8(1, 4);
  buffer.writeBigInt64LE(BigInt(fields.offset), 17);
  buffer.writeBigInt64LE(BigInt(fields.size), 25);
  buffer.writeInt32LE(fields.fsType ?? 0, 201);
  buffer.writeInt32LE(fields.partType ?? 0, 205);
  return buffer;
}

describe("SIF header", () => {
  it("finds the descriptor table and the squashfs system partition", () => {
    const header = Buffer.alloc(SIF_HEADER_BYTES);
    header.write("SIF_MAGIC\0", 32, "latin1");
    header.writeBigInt64LE(4096n, 96);
    header.writeBigInt64LE(BigInt(3 * DESCRIPTOR_BYTES), 104);
    expect(isSifHeader(header)).toBe(true);
    expect(sifDescriptorTable(header)).toEqual({ offset: 4096, length: 3 * DESCRIPTOR_BYTES });
    const table = Buffer.concat([
      descriptor({ dataType: 0x4001, offset: 100, size: 10 }), // a definition file
      descriptor({ dataType: 0x4004, offset: 200, size: 20, fsType: 1, partType: 4 }), // an overlay
      descriptor({ dataType: 0x4004, offset: 32_768, size: 58_003_456, fsType: 1, partType: 2 }),
    ]);
    expect(findSifRootPartition(table)).toEqual({ offset: 32_768, size: 58_003_456 });
  });

  it("says what the file holds when there is no squashfs system partition", () => {
    expect(isSifHeader(Buffer.alloc(SIF_HEADER_BYTES))).toBe(false);
    expect(() => sifDescriptorTable(Buffer.alloc(SIF_HEADER_BYTES))).toThrow(/not a SIF file/);
    expect(() => findSifRootPartition(descriptor({ dataType: 0x4001, offset: 1, size: 1 }))).toThrow(
      /no squashfs system partition \(it holds: data type 0x4001\)/,
    );
    expect(() =>
      findSifRootPartition(descriptor({ dataType: 0x4004, offset: 1, size: 1, fsType: 2, partType: 2 })),
    ).toThrow(/not squashfs/);
  });
});
