const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
let lastTimeMs = 0;
let counter = 0;

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
  // Web Crypto: present in Node 20 and in browsers, so this module stays browser-safe.
  const random = globalThis.crypto.getRandomValues(new Uint8Array(8));
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
