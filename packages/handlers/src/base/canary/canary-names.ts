import { randomInt } from "node:crypto";

/**
 * Words canary identifiers are made of: the vocabulary of ordinary tests, so a canary's name
 * tells nothing about what it is. Drawn with a cryptographic generator for every grading run.
 */
const WORDS = [
  "accepts",
  "adds",
  "after",
  "args",
  "basic",
  "before",
  "boundary",
  "bytes",
  "cache",
  "case",
  "checks",
  "config",
  "converts",
  "count",
  "default",
  "empty",
  "encoding",
  "entry",
  "equal",
  "error",
  "extra",
  "field",
  "first",
  "flag",
  "format",
  "handles",
  "index",
  "input",
  "items",
  "keeps",
  "key",
  "large",
  "last",
  "length",
  "limit",
  "list",
  "lookup",
  "merge",
  "missing",
  "mixed",
  "name",
  "negative",
  "nested",
  "none",
  "number",
  "order",
  "output",
  "parse",
  "path",
  "prefix",
  "range",
  "reads",
  "rejects",
  "repeat",
  "result",
  "returns",
  "reverse",
  "round",
  "same",
  "single",
  "size",
  "skips",
  "small",
  "sort",
  "split",
  "state",
  "string",
  "strip",
  "suffix",
  "text",
  "trailing",
  "unicode",
  "update",
  "value",
  "values",
  "zero",
] as const;

const CLASS_WORDS = [
  "Basic",
  "Behaviour",
  "Boundary",
  "Cases",
  "Compat",
  "Conversion",
  "Edge",
  "Format",
  "Input",
  "Lookup",
  "Misc",
  "Output",
  "Parsing",
  "Regression",
  "Roundtrip",
  "Values",
] as const;

function pick<T>(items: readonly T[]): T {
  return items[randomInt(items.length)] as T;
}

/** `test_<w>_<w>_<w>_<n>`: a fresh, unpredictable test function or method name. */
export function canaryTestName(): string {
  return `test_${pick(WORDS)}_${pick(WORDS)}_${pick(WORDS)}_${randomInt(10, 100)}`;
}

/** A fixture or helper name (no `test_` prefix, so no framework collects it). */
export function canaryHelperName(): string {
  return `${pick(WORDS)}_${pick(WORDS)}_${randomInt(10, 100)}`;
}

/** `<Word><Word>Test<n>`: a fresh TestCase class name. */
export function canaryClassName(): string {
  return `${pick(CLASS_WORDS)}${pick(CLASS_WORDS)}Test${randomInt(10, 100)}`;
}

/** A random integer in [min, max). */
export function canaryInt(min: number, max: number): number {
  return randomInt(min, max);
}
