// `npm run bench -- targets [--only a,b] [--all] [--no-fail] [--list]`: runs every bench that has a named
// target (bench/targets/bench-targets.ts) in its short form, one after another, each in a process of
// its own, and prints one table: bench, key, target, figure, met/missed. Exits 1 when a target is
// missed (`--no-fail`: report only). Benches marked slow (chaos, soak) run with `--all` or `--only`.
// `--list` prints the plan (each bench's short-form command and its targets) and runs nothing.
import { parseArgs } from "node:util";
import type { Bench, BenchReport } from "./bench.types";
import { runBenchChild } from "./targets/bench-child";
import { BENCH_TARGETS, type BenchTargets } from "./targets/bench-targets";
import {
  type BenchOutcome,
  judgeBench,
  type TargetVerdict,
  targetsExitCode,
  verdictRows,
  verdictSummary,
} from "./targets/target-verdict";

/** The benches this run covers: `--only` names them, else every one not slow (all with `--all`). */
export function chooseBenches(only: string | undefined, isAll: boolean): BenchTargets[] {
  if (only === undefined) return BENCH_TARGETS.filter((entry) => isAll || !entry.isSlow);
  const names = only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !BENCH_TARGETS.some((entry) => entry.bench === name));
  if (unknown.length > 0)
    throw new Error(
      `--only: no targets declared for ${unknown.join(", ")}; benches with targets: ${BENCH_TARGETS.map((e) => e.bench).join(", ")}`,
    );
  return BENCH_TARGETS.filter((entry) => names.includes(entry.bench));
}

const bench: Bench = {
  name: "targets",
  description:
    "every bench with a named target, in its short form (bench/targets/bench-targets.ts), judged against that table",
  async run(args): Promise<BenchReport> {
    const { values } = parseArgs({
      args,
      options: {
        only: { type: "string" },
        all: { type: "boolean", default: false },
        "no-fail": { type: "boolean", default: false },
        list: { type: "boolean", default: false },
      },
    });
    const chosen = chooseBenches(values.only, values.all ?? false);
    const verdicts: TargetVerdict[] = [];
    const seconds: Record<string, number> = {};
    for (const entry of BENCH_TARGETS) {
      let outcome: BenchOutcome;
      if (!chosen.includes(entry)) outcome = { kind: "skipped", reason: "slow: run with --all" };
      else if (values.list)
        outcome = { kind: "skipped", reason: `--list: ${entry.shortArgs.join(" ") || "(defaults)"}` };
      else {
        console.log(`\n## targets: npm run bench -- ${[entry.bench, ...entry.shortArgs].join(" ")}`);
        const started = performance.now();
        outcome = await runBenchChild(entry.bench, entry.shortArgs);
        seconds[entry.bench] = Math.round((performance.now() - started) / 1_000);
      }
      // `--only` leaves the others out of the table; the default run lists the slow ones as not run.
      if (values.only === undefined || chosen.includes(entry)) verdicts.push(...judgeBench(entry, outcome));
    }
    const rows = verdictRows(verdicts).map((row) => ({ ...row, benchSeconds: seconds[row.name] ?? null }));
    return {
      bench: "targets",
      description: bench.description,
      rows,
      summary: {
        ...verdictSummary(verdicts),
        totalSeconds: Object.values(seconds).reduce((a, b) => a + b, 0),
      },
      config: {
        benches: chosen.map((entry) => ({ bench: entry.bench, args: entry.shortArgs })),
        reportOnly: values["no-fail"] ?? false,
      },
      exitCode: targetsExitCode(verdicts, values["no-fail"] ?? false),
    };
  },
};

export default bench;
