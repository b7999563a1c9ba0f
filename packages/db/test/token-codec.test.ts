import { describe, expect, it } from "vitest";
import { decodeLogprobs, decodeTokenIds, encodeLogprobs, encodeTokenIds } from "../src/index";

describe("token codec", () => {
  it("stores ids as 4-byte little-endian integers and reads them back exactly", () => {
    const ids = [0, 1, 151_644, 151_667, 2_147_483_647, -1];
    const bytes = encodeTokenIds(ids);
    expect(bytes.byteLength).toBe(ids.length * 4);
    expect([...bytes.slice(8, 12)]).toEqual([0x5c, 0x50, 0x02, 0x00]); // 151644 = 0x0002505c
    expect(decodeTokenIds(bytes)).toEqual(ids);
  });

  it("reads ids from a view that does not start at offset 0", () => {
    const inner = encodeTokenIds([5, 151_644]);
    const outer = new Uint8Array(inner.byteLength + 3);
    outer.set(inner, 3);
    expect(decodeTokenIds(outer.subarray(3))).toEqual([5, 151_644]);
  });

  it("rejects ids that are not 32-bit integers", () => {
    expect(() => encodeTokenIds([1.5])).toThrow(/position 0/);
    expect(() => encodeTokenIds([1, 2 ** 31])).toThrow(/position 1/);
  });

  it("stores logprobs as float32", () => {
    const logprobs = [-0.1, -3.217654321, 0, -1e-7, Number.NEGATIVE_INFINITY];
    const bytes = encodeLogprobs(logprobs);
    expect(bytes.byteLength).toBe(20);
    expect(decodeLogprobs(bytes)).toEqual(logprobs.map(Math.fround));
  });

  it("rejects a byte length that is not a multiple of 4", () => {
    expect(() => decodeTokenIds(new Uint8Array(5))).toThrow(/4-byte/);
  });
});
