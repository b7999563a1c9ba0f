import { createSeededRandom } from "./seeded-random";

/** Fragments a policy might garble a tool call with: unbalanced JSON, stray quotes, cut markers. */
const JUNK = ['{"name": ', "}", "{", '"', "\\", "]", "<", "<|", "\n", ",,", "null", '"arguments": [1,'];

/**
 * Three malformed variants of a response, as a policy could write it: cut short, a span deleted,
 * junk inserted (reordered markers come from duplicating a span). Deterministic for a seed.
 */
export function fuzzResponse(text: string, seed: number): string[] {
  const random = createSeededRandom(seed);
  const at = () => Math.floor(random() * (text.length + 1));
  const [a, b] = [at(), at()].sort((x, y) => x - y) as [number, number];
  const junk = JUNK[Math.floor(random() * JUNK.length)] ?? "{";
  const insertAt = at();
  return [
    text.slice(0, a),
    text.slice(0, a) + text.slice(b),
    text.slice(0, insertAt) + junk + text.slice(a, b) + text.slice(insertAt),
  ];
}
