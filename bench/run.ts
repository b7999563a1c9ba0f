// `npm run bench -- <name> [args]`: runs one benchmark, prints its table, writes JSON to
// bench/results/<name>-<timestamp>.json.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Bench, BenchReport } from "./bench.types";
import { formatTable } from "./table";
import { WROTE_LABEL } from "./targets/bench-child";

const here = dirname(fileURLToPath(import.meta.url));

function available(): string[] {
  return readdirSync(here)
    .filter((file) => file.endsWith(".bench.ts"))
    .map((file) => file.replace(/\.bench\.ts$/, ""))
    .sort();
}

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const names = available();
  if (!name || !names.includes(name)) {
    console.error(`usage: npm run bench -- <name> [args]\navailable: ${names.join(", ")}`);
    process.exit(2);
  }
  const module = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as { default: Bench };
  console.log(`# bench ${name}: ${module.default.description}`);
  const report: BenchReport = await module.default.run(args);
  console.log(formatTable(report.rows));
  console.log("\nsummary:");
  for (const [key, value] of Object.entries(report.summary)) console.log(`  ${key}: ${value}`);
  const resultsDir = join(here, "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify({ ...report, at: new Date().toISOString() }, null, 2)}\n`);
  console.log(`\n${WROTE_LABEL}${file}`);
  process.exit(report.exitCode ?? 0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
