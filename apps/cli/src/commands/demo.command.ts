import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { RaasClient } from "../client";
import { DEMO_PLAN } from "../demo/demo-plan";
import { runDemo } from "../demo/run-demo";
import { printJson } from "../output";

export const DEMO_HELP = `raas demo [--swe-dataset FILE.jsonl] [--json]
      Fills the server with demo data (what \`npm start\` runs unless --no-demo or RAAS_DEMO=0):
      short training runs over the shipped math/code/swe datasets and two SWE-bench runs over the
      shipped fixtures. Idempotent: a re-run resumes or skips what is stored.`;

/** The shipped SWE fixtures, from the repository root (found upwards from the working directory). */
function shippedSweDataset(): string | undefined {
  for (let dir = process.cwd(); ; dir = resolve(dir, "..")) {
    const file = join(dir, "packages/handlers/data/swe/instances.jsonl");
    if (existsSync(file)) return file;
    if (resolve(dir, "..") === dir) return undefined;
  }
}

export async function demoCommand(client: RaasClient, argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { "swe-dataset": { type: "string" }, json: { type: "boolean", default: false } },
  });
  const { parseSweJsonl } = await import("@raas/handlers");
  const dataset = values["swe-dataset"] ?? shippedSweDataset();
  const sweInstances = dataset ? parseSweJsonl(readFileSync(dataset, "utf8"), dataset) : [];
  const summary = await runDemo({
    client,
    plan: DEMO_PLAN,
    sweInstances,
    log: (message) => console.error(`[demo] ${message}`),
  });
  if (values.json) printJson(summary);
  else
    console.error(
      `[demo] done: ${Object.keys(summary.runs).length} training runs, ${summary.benchmarks.length} benchmark runs`,
    );
  return 0;
}
