/** 32-bit FNV-1a over the parts' string forms: a stable seed from mixed inputs. */
export function hashSeed(...parts: readonly (string | number | undefined | null)[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    const text = `${part ?? "-"}\u0000`;
    for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a small deterministic PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const WORDS = [
  "check",
  "file",
  "test",
  "error",
  "function",
  "module",
  "value",
  "change",
  "look",
  "first",
  "then",
  "the",
  "a",
  "output",
  "line",
  "fix",
  "run",
  "path",
  "should",
  "update",
  "expected",
  "result",
  "case",
];

/** Deterministic filler prose of `count` words (for thinking text of scripted turns). */
export function fillerWords(random: () => number, count: number): string {
  const words: string[] = [];
  for (let i = 0; i < count; i += 1) words.push(WORDS[Math.floor(random() * WORDS.length)] as string);
  return words.join(" ");
}
