// `npm run bench -- tokenizer [--repeat 20] [--families qwen3,llama3,deepseek-v3,gpt-oss,gemma3]`:
// encoding (text → token ids) per model family, the library's own `encode` (`@lenml/tokenizers`
// over the family's tokenizer files, the baseline) against the tokenizer RaaS encodes with (its
// byte-level encoder where it reproduces the library exactly, else the library itself: Gemma 3),
// with the ids compared on every call. The texts are what the gateway and the agent loop
// tokenize: tool output (a test log), source code, prose, short new messages, non-Latin text. Each
// repeat encodes a variant never encoded before (numbers in it change), as a new tool output is;
// both sides keep their caches warm across repeats, as in a long-running server, and never share
// one (two tokenizer instances). Qwen3 is loaded as RaaS loads it (`loadQwen3Tokenizer`); the
// other families from their `@lenml/tokenizer-*` package directories, as `loadDirectoryModelFamily`
// loads any model's. The unprefixed summary keys are Qwen3's, as before families were added.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  loadDirectoryTokenizerWithBaseline,
  loadQwen3LibraryEncode,
  loadQwen3Tokenizer,
} from "@raas/inference";
import type { Bench, BenchRow } from "./bench.types";
import { median } from "./stats";

const root = resolve(import.meta.dirname, "..");

function sources(dir: string, limitChars: number): string {
  let text = "";
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      if (text.length >= limitChars) return;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) text += readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return text.slice(0, limitChars);
}

/** The texts, each as a function of the repeat (so every repeat's text is new). */
const KINDS: { name: string; make: (repeat: number) => string }[] = [
  {
    name: "tool output (pytest log, 400 lines)",
    make: (r) =>
      Array.from(
        { length: 400 },
        (_, i) => `tests/test_module_${i + r}.py::test_case_${(i * 7 + r) % 17} PASSED [ ${i % 100}%]`,
      ).join("\n"),
  },
  {
    name: "source code (20k chars)",
    make: (r) => `// revision ${r}\n${sources(join(root, "packages/engine/src"), 20_000)}`,
  },
  {
    name: "prose (the repo's docs, 20k chars)",
    make: (r) => `Revision ${r}.\n${docsProse(20_000)}`,
  },
  {
    name: "short new message",
    make: (r) => `task_id: bench-${r * 7_919}\nList the files in the repository.`,
  },
  {
    name: "non-Latin text (CJK, Cyrillic, accents, emoji)",
    make: (r) =>
      Array.from({ length: 200 }, (_, i) => `第${i + r}章 東京の天気 Жизнь №${i} café naïve 🙂 `).join(""),
  },
];

type Encode = (text: string) => number[];

interface FamilyEncoders {
  slow: Encode;
  fast: Encode;
  /** Qwen3's load time of the tokenizer RaaS uses (its fast encoder's tables included). */
  loadMs?: number;
}

/** A family as RaaS loads it, and the library's own encode on an instance of its own. */
async function loadFromPackage(name: string): Promise<FamilyEncoders> {
  const directory = dirname(
    createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`),
  );
  const { tokenizer, libraryEncode } = await loadDirectoryTokenizerWithBaseline(directory);
  return { slow: libraryEncode, fast: tokenizer.encode };
}

const FAMILIES: { name: string; load: () => Promise<FamilyEncoders> }[] = [
  {
    name: "qwen3",
    load: async () => {
      const slow = loadQwen3LibraryEncode();
      const at = performance.now();
      const { encode: fast } = loadQwen3Tokenizer();
      return { slow, fast, loadMs: performance.now() - at };
    },
  },
  { name: "llama3", load: () => loadFromPackage("llama3_2") },
  { name: "deepseek-v3", load: () => loadFromPackage("deepseek_v3") },
  { name: "gpt-oss", load: () => loadFromPackage("gptoss") },
  { name: "gemma3", load: () => loadFromPackage("gemma3") },
];

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

interface FamilyResult {
  rows: BenchRow[];
  speedups: Record<string, number>;
  same: number;
  calls: number;
}

/** Every kind of text through both encoders, `repeats` new variants each. */
function measureFamily(family: string, { slow, fast }: FamilyEncoders, repeats: number): FamilyResult {
  const rows: BenchRow[] = [];
  const speedups: Record<string, number> = {};
  let calls = 0;
  let same = 0;
  for (const kind of KINDS) {
    // Warm-up: JIT and caches on a variant that is not measured.
    slow(kind.make(-1));
    fast(kind.make(-1));
    const slowMs: number[] = [];
    const fastMs: number[] = [];
    let tokens = 0;
    for (let r = 0; r < repeats; r += 1) {
      const text = kind.make(r);
      let at = performance.now();
      const expected = slow(text);
      slowMs.push(performance.now() - at);
      at = performance.now();
      const ids = fast(text);
      fastMs.push(performance.now() - at);
      tokens = ids.length;
      calls += 1;
      if (sameIds(ids, expected)) same += 1;
    }
    const slowP50 = median(slowMs);
    const fastP50 = median(fastMs);
    speedups[kind.name] = slowP50 / fastP50;
    for (const [variant, p50] of [
      ["library encode (baseline)", slowP50],
      ["RaaS encoder", fastP50],
    ] as const) {
      rows.push({
        name: `${family} · ${kind.name}: ${variant}`,
        n: repeats,
        tokens,
        p50Ms: Number(p50.toFixed(4)),
        tokensPerSecond: Math.round(tokens / (p50 / 1000)),
        speedup: Number((slowP50 / p50).toFixed(2)),
      });
    }
  }
  return { rows, speedups, same, calls };
}

const bench: Bench = {
  name: "tokenizer",
  description:
    "Encoding per model family: the library's encode (baseline) vs the tokenizer RaaS encodes with (byte-level encoder where exact; same ids)",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        repeat: { type: "string", default: "20" },
        families: { type: "string", default: FAMILIES.map((family) => family.name).join(",") },
      },
    });
    const repeats = Math.max(1, Number(values.repeat));
    const chosen = new Set(values.families.split(","));
    const rows: BenchRow[] = [];
    const summary: Record<string, number | string> = {};
    for (const family of FAMILIES.filter((candidate) => chosen.has(candidate.name))) {
      const encoders = await family.load();
      const result = measureFamily(family.name, encoders, repeats);
      rows.push(...result.rows);
      for (const [kind, ratio] of Object.entries(result.speedups)) {
        summary[`${family.name} speedup: ${kind}`] = Number(ratio.toFixed(2));
      }
      summary[`${family.name} sameIds`] = `${result.same}/${result.calls}`;
      if (family.name === "qwen3") {
        for (const [kind, ratio] of Object.entries(result.speedups)) {
          summary[`speedup: ${kind}`] = Number(ratio.toFixed(2));
        }
        summary.sameIds = `${result.same}/${result.calls}`;
        summary.tokenizerLoadMs = Number((encoders.loadMs ?? 0).toFixed(1));
      }
    }
    return {
      bench: "tokenizer",
      description: bench.description,
      rows,
      summary,
      config: { repeats, families: [...chosen] },
    };
  },
};

export default bench;

/** `length` characters of the repository's own docs, repeated when they are shorter. */
function docsProse(length: number): string {
  const docs = ["ARCHITECTURE.md", "README.md", "apps/server/README.md", "bench/README.md"]
    .map((path) => readFileSync(join(root, path), "utf8"))
    .join("\n");
  return docs.repeat(Math.ceil(length / docs.length)).slice(0, length);
}
