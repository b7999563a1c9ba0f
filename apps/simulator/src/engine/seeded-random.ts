/** 32-bit FNV-1a over the parts' string forms: a stable seed from mixed inputs. */
export function hashSeed(...parts: readonly (string | number | undefined | null)[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    const text = `${part ?? "-"}\u0000`;
    for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

export { seededRandom } from "@raas/shared";

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
