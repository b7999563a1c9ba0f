/** An added token as a loaded tokenizer describes it. */
interface AddedTokenPart {
  content: string;
  id: number;
  lstrip?: boolean;
  rstrip?: boolean;
  normalized?: boolean | null;
}

/** A component's configuration as `tokenizer.json` gives it; loaded components keep theirs as `config`. */
interface ComponentConfig {
  type?: string;
  normalizers?: readonly ComponentConfig[];
  processors?: readonly ComponentConfig[];
  single?: readonly Record<string, unknown>[];
}

/** The parts of a loaded byte-level BPE tokenizer (`@lenml/tokenizers`) that encoding reads. */
export interface ByteLevelEncodeParts {
  normalizer?: { config?: ComponentConfig } | null;
  /** Any pre-tokenizer; only a `Sequence` (its `tokenizers`) of Splits then a ByteLevel is encoded here. */
  pre_tokenizer?: object | null;
  model?: {
    /** Every token's id, added tokens included (the library adds them to the model's map). */
    tokens_to_ids?: Map<string, number>;
    merges?: readonly (readonly [string, string])[];
    end_of_word_suffix?: string | null;
    continuing_subword_suffix?: string | null;
    ignore_merges?: boolean;
  };
  post_processor?: { config?: ComponentConfig } | null;
  added_tokens?: readonly AddedTokenPart[];
  remove_space?: boolean;
  do_lowercase_and_remove_accent?: boolean;
}

/** One step of a `Sequence` pre-tokenizer, as encoding reads it. */
interface PreTokenizerStep {
  config?: { type?: string; behavior?: string; invert?: boolean; add_prefix_space?: boolean };
  pattern?: unknown;
  use_regex?: boolean;
}

/** What encoding needs of a supported tokenizer, read from its own configuration. */
export interface ByteLevelConfig {
  idOf: ReadonlyMap<string, number>;
  merges: readonly (readonly [string, string])[];
  /** The split patterns of the pre-tokenizer's Split steps, in order, each global. */
  patterns: readonly RegExp[];
  isNfc: boolean;
  /** A piece that is itself a token is that token, unmerged (the BPE model's `ignore_merges`). */
  ignoresMerges: boolean;
  added: readonly AddedTokenPart[];
}

/**
 * The steps of a `Sequence` pre-tokenizer; none for any other kind. The library's pre-tokenizers
 * are callable objects (functions with fields).
 */
function preTokenizerSteps(preTokenizer: object | null | undefined): readonly PreTokenizerStep[] {
  if (!preTokenizer || !("tokenizers" in preTokenizer) || !Array.isArray(preTokenizer.tokenizers)) return [];
  const isStep = (step: unknown): step is PreTokenizerStep =>
    (typeof step === "object" || typeof step === "function") && step !== null;
  return preTokenizer.tokenizers.filter(isStep);
}

/**
 * The Split steps' patterns when the pre-tokenizer is a sequence of Split steps (each keeping its
 * matches and the text between them, as the library does for `Isolated`) ending in a ByteLevel
 * step that neither splits again nor adds a prefix space; else null.
 */
function readSplitPatterns(preTokenizer: object | null | undefined): RegExp[] | null {
  const steps = preTokenizerSteps(preTokenizer);
  const byteLevel = steps.at(-1);
  if (byteLevel?.config?.type !== "ByteLevel" || byteLevel.use_regex || byteLevel.config.add_prefix_space) {
    return null;
  }
  const splits = steps.slice(0, -1);
  if (splits.length === 0) return null;
  const patterns: RegExp[] = [];
  for (const split of splits) {
    const pattern = split.pattern;
    if (!(pattern instanceof RegExp) || split.config?.type !== "Split" || split.config.invert) return null;
    if (split.config.behavior !== "Isolated") return null;
    patterns.push(
      new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`),
    );
  }
  return patterns;
}

/** "none" or "NFC" for a normalizer that does nothing or only NFC (also as a sequence); else null. */
function readNormalization(config: ComponentConfig | undefined): "none" | "NFC" | null {
  if (config?.type === "NFC") return "NFC";
  if (config?.type !== "Sequence" || !Array.isArray(config.normalizers)) return null;
  let result: "none" | "NFC" = "none";
  for (const inner of config.normalizers) {
    const step = readNormalization(inner);
    if (step === null) return null;
    // NFC twice is NFC once.
    if (step === "NFC") result = "NFC";
  }
  return result;
}

/**
 * Whether the post-processor leaves `encode(text, { add_special_tokens: false })` as it is: a
 * ByteLevel one (it only joins pairs), a template whose single-text form is the text once among
 * special tokens (which are added only with add_special_tokens), or a sequence of those.
 */
function isPostProcessorInert(config: ComponentConfig | undefined): boolean {
  if (config?.type === "ByteLevel") return true;
  if (config?.type === "Sequence")
    return Array.isArray(config.processors) && config.processors.every(isPostProcessorInert);
  if (config?.type !== "TemplateProcessing" || !Array.isArray(config.single)) return false;
  let texts = 0;
  for (const item of config.single) {
    if ("Sequence" in item) {
      const sequence = item.Sequence as { id?: unknown } | null;
      if (sequence?.id !== "A") return false;
      texts += 1;
    } else if (!("SpecialToken" in item)) return false;
  }
  return texts === 1;
}

/**
 * The tokenizer's configuration when encoding it needs nothing but byte-level BPE: an NFC
 * normalizer or none, Split steps then a ByteLevel pre-tokenizer, a post-processor inert without
 * special tokens, and added tokens without stripping. Added tokens marked `normalized` are
 * accepted because the library matches every added token in the raw text, before normalizing.
 * Anything else is null: its encoding is left to the library.
 */
export function readByteLevelConfig(parts: ByteLevelEncodeParts): ByteLevelConfig | null {
  const model = parts.model;
  const idOf = model?.tokens_to_ids;
  const merges = model?.merges;
  if (!idOf || !merges) return null;
  if (model.end_of_word_suffix || model.continuing_subword_suffix) return null;
  if (parts.remove_space || parts.do_lowercase_and_remove_accent) return null;
  const normalization = parts.normalizer ? readNormalization(parts.normalizer.config) : "none";
  if (normalization === null) return null;
  if (parts.post_processor && !isPostProcessorInert(parts.post_processor.config)) return null;
  const patterns = readSplitPatterns(parts.pre_tokenizer);
  if (!patterns) return null;
  const added = parts.added_tokens ?? [];
  if (added.some((token) => token.lstrip || token.rstrip || token.content.length === 0)) return null;
  return {
    idOf,
    merges,
    patterns,
    isNfc: normalization === "NFC",
    ignoresMerges: model.ignore_merges === true,
    added,
  };
}
