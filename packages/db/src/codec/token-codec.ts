/**
 * Compact binary encodings of token arrays, stored in `bytea` columns: token ids as Int32
 * little-endian, logprobs as Float32 little-endian. 4 bytes per token; the byte order is fixed so
 * a database written on one machine reads the same on any other.
 */

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** Encodes token ids as Int32 little-endian. Throws on a value that is not an Int32 integer. */
export function encodeTokenIds(ids: readonly number[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(ids.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < ids.length; i += 1) {
    const id = ids[i] as number;
    if (!Number.isInteger(id) || id < INT32_MIN || id > INT32_MAX) {
      throw new RangeError(`token id at position ${i} is not a 32-bit integer: ${id}`);
    }
    view.setInt32(i * 4, id, true);
  }
  return bytes;
}

/** Decodes Int32 little-endian token ids. */
export function decodeTokenIds(bytes: Uint8Array): number[] {
  const view = viewOf(bytes, "token ids");
  const out = new Array<number>(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i += 1) out[i] = view.getInt32(i * 4, true);
  return out;
}

/**
 * Encodes logprobs as Float32 little-endian. Values are rounded to single precision
 * (`Math.fround`), which is what inference servers compute them in.
 */
export function encodeLogprobs(logprobs: readonly number[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(logprobs.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < logprobs.length; i += 1) view.setFloat32(i * 4, logprobs[i] as number, true);
  return bytes;
}

/** Decodes Float32 little-endian logprobs. */
export function decodeLogprobs(bytes: Uint8Array): number[] {
  const view = viewOf(bytes, "logprobs");
  const out = new Array<number>(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i += 1) out[i] = view.getFloat32(i * 4, true);
  return out;
}

function viewOf(bytes: Uint8Array, what: string): DataView {
  if (bytes.byteLength % 4 !== 0) {
    throw new RangeError(`${what}: ${bytes.byteLength} bytes is not a whole number of 4-byte values`);
  }
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
