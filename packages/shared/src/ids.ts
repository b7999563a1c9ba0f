const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
let lastTimeMs = 0;
let counter = 0;
// Random bytes are drawn in blocks: one Web Crypto call per 512 ids instead of one per id.
const POOL_BYTES = 4_096;
let pool = new Uint8Array(0);
let poolOffset = POOL_BYTES;

function randomBytes8(): Uint8Array {
  if (poolOffset + 8 > pool.length) {
    // Web Crypto: present in Node 20 and in browsers, so this module stays browser-safe.
    pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + 8);
  poolOffset += 8;
  return bytes;
}

/**
 * A time-sortable id: 10 chars of millisecond time, 4 of a per-millisecond counter and 8 random,
 * in Crockford base32. Lexicographic order equals creation order within one process, which makes
 * ids usable as pagination cursors.
 */
export function newId(prefix: string, nowMs: number = Date.now()): string {
  if (nowMs === lastTimeMs) counter += 1;
  else {
    lastTimeMs = nowMs;
    counter = 0;
  }
  const random = randomBytes8();
  let out = encode(nowMs, 10) + encode(counter, 4);
  for (const byte of random) out += ALPHABET[byte & 31];
  return `${prefix}_${out}`;
}

function encode(value: number, length: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < length; i += 1) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}
