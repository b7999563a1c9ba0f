// Texts for differential tokenizer tests: a fast encoder must give the library's ids on all of them.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { seededRandom } from "@raas/shared";

/** Texts whose ids differ between the two encoders (at most `limit`, each shortened for the report). */
export function findMismatches(
  fast: (text: string) => number[],
  slow: (text: string) => number[],
  texts: Iterable<string>,
  limit = 5,
): string[] {
  const found: string[] = [];
  for (const text of texts) {
    if (JSON.stringify(fast(text)) !== JSON.stringify(slow(text)))
      found.push(JSON.stringify(text.slice(0, 120)));
    if (found.length >= limit) break;
  }
  return found;
}

/**
 * Characters of every kind the pre-tokenizers' patterns tell apart (letters by case, marks,
 * numbers of several scripts, punctuation, symbols, whitespace of several kinds, contractions,
 * CJK runs, kana), the ones NFC changes, lone surrogates and control characters.
 */
const POOL = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
  ..."0123456789",
  ..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
  " ",
  " ",
  " ",
  "  ",
  "\n",
  "\r\n",
  "\r",
  "\t",
  "\u00a0",
  "\u2028",
  "\u3000",
  "'s",
  "'LL",
  "'Re",
  "'d",
  "n't",
  "é",
  "e\u0301",
  "\u0301",
  "ß",
  "ﬁ",
  "Å",
  "A\u030a",
  "ǅ",
  "ʰ",
  "Жизнь",
  "東京",
  "日本語",
  "ひらがな",
  "カタカナ",
  "한국어",
  "مرحبا",
  "हिन्दी",
  "١٢٣",
  "½",
  "²",
  "Ⅻ",
  "€",
  "→",
  "🙂",
  "👩‍💻",
  "🇩🇪",
  "\u200b",
  "\ufeff",
  "\ud800",
  "\udfff",
  "\u0000",
  "\u007f",
];

/** `count` random texts of up to `maxLength` draws from the pool and the family's `extra` texts (its added tokens). */
export function randomTexts(
  seed: number,
  count: number,
  maxLength: number,
  extra: readonly string[],
): string[] {
  const next = seededRandom(seed);
  const pool = [...POOL, ...extra];
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(next() * maxLength);
    let text = "";
    for (let i = 0; i < length; i += 1) text += pool[Math.floor(next() * pool.length)];
    return text;
  });
}

/** Random code points from the whole range (surrogate halves included), as fuzz. */
export function randomUnicode(seed: number, count: number, maxLength: number): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(next() * maxLength);
    let text = "";
    for (let i = 0; i < length; i += 1) {
      const pick = next();
      const codePoint =
        pick < 0.3
          ? Math.floor(next() * 0x80)
          : pick < 0.7
            ? Math.floor(next() * 0x3000)
            : Math.floor(next() * 0x110000);
      text += String.fromCodePoint(codePoint);
    }
    return text;
  });
}

/** This package's sources and the repository's docs: code, prose, tables, as tool output shows them. */
export function repositoryTexts(): string[] {
  const root = resolve(import.meta.dirname, "../../../..");
  const files: string[] = [join(root, "README.md"), join(root, "ARCHITECTURE.md")];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) files.push(path);
    }
  };
  walk(resolve(import.meta.dirname, "../../src"));
  return files.map((file) => readFileSync(file, "utf8"));
}

/** Pieces of the texts cut at random places (`perText` each, up to 400 characters). */
export function cutTexts(texts: readonly string[], seed: number, perText: number): string[] {
  const next = seededRandom(seed);
  return texts.flatMap((text) =>
    Array.from({ length: perText }, () => {
      const start = Math.floor(next() * text.length);
      return text.slice(start, start + 1 + Math.floor(next() * 400));
    }),
  );
}

/** Long runs (spaces, symbols, digits, letters, CJK, emoji), which merge through the heap and split into many pieces. */
export function longRuns(seed: number): string[] {
  const next = seededRandom(seed);
  const blob = (alphabet: string, length: number) => {
    const chars = [...alphabet];
    return Array.from({ length }, () => chars[Math.floor(next() * chars.length)]).join("");
  };
  return [
    " ".repeat(1_000),
    "=".repeat(500),
    `${"-".repeat(79)}\n`.repeat(20),
    "\n".repeat(300),
    "\t ".repeat(200),
    " \n \n  \r\n\t".repeat(100),
    "a".repeat(2_000),
    "ab".repeat(700),
    "1234567890".repeat(100),
    blob("0123456789.,", 2_000),
    blob("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 3_000),
    blob("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 4_000),
    blob("東京日本語한국어ひらがなカタカナ", 500),
    blob("éèêëàâäôöûüç", 800),
    "🙂".repeat(300),
    blob("!@#$%^&*()_+{}|:<>?~", 1_000),
  ];
}

/** Texts of the kinds an agent loop tokenizes, each with the family's added tokens spliced in mid-text. */
export function agentTexts(added: readonly string[]): string[] {
  const token = (i: number) => added[i % Math.max(added.length, 1)] ?? "";
  const log = Array.from(
    { length: 60 },
    (_, i) =>
      `2026-12-07T12:${String(i).padStart(2, "0")}:03.512Z INFO worker-${i % 7} job=${i * 7_919} ok (${i * 1.5} ms)`,
  ).join("\n");
  return [
    log,
    `${token(0)}user\nFix the failing test.${token(1)}\n${token(2)}assistant\n`,
    `def add(a, b):\n    return a + b${token(3)}\n\nclass Foo:\n\tpass  # tab\n`,
    `Numbers: 1 12 123 1234 12345 3.14159 -42 1e10 0x1F 1,000,000 ١٢٣٤ ½ ²${token(4)}`,
    `The café's naïve résumé — “quoted” ‘text’ … I'm, you're, they've, it's, we'll, he'd, DON'T.`,
    `東京の天気は晴れです。今日は${token(5)}いい天気ですね。中文测试：你好，世界！カタカナとひらがな。한국어 텍스트.`,
    "Tiếng Việt: việc hợp nhiều điều người. Čeština: jeho přítel říká. Türkçe: ğüşıöç İstanbul.",
    `Жизнь прекрасна. Ελληνικά κείμενα. עברית טקסט. مرحبا بالعالم. हिन्दी पाठ।`,
    "Emoji: 🙂👍🏽👩‍👩‍👧‍👦🇯🇵 ❤️ ✔︎ 🧑🏿‍🚀 end",
    `Combining: e\u0301 a\u0300 o\u0308 n\u0303 A\u030a \u1e9b\u0323 q\u0307\u0323 ${"x\u0301".repeat(20)}`,
    `${" ".repeat(37)}indented\n\n\n\n${"\t".repeat(9)}tabs   \n   \r\n  trailing   `,
    `${token(6)}${token(7)}${token(8)}back to back`,
    `partial ${token(9).slice(0, -2)} and ${token(10).slice(1)} markers`,
  ];
}
