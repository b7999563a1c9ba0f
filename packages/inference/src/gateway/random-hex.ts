import { randomFillSync } from "node:crypto";

const POOL_BYTES = 4_096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * `bytes` cryptographically random bytes as hex (ids of calls and tool calls). Draws from a pool
 * refilled 4 KiB at a time: one system call per few hundred ids instead of one per id.
 */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(bytes)).toString("hex");
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString("hex", offset, offset + bytes);
  offset += bytes;
  return hex;
}
