import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { RaasClient } from "../client";
import { DEMO_PLAN } from "../demo/demo-plan";
import { runDemo } from "../demo/run-demo";
import { printJson } from "../output";

export const DEMO_HELP = `raas demo [--swe-dataset FILE.jsonl] [--wait-for-server SECONDS] [--json]
      Fills the server with demo data (what \`npm start\` runs unless --no-demo or RAAS_DEMO=0):
      short training runs over the shipped math/code/swe datasets and two SWE-bench runs over the
      shipped fixtures, all at once; logs when every dashboard page first had data. Idempotent: a
      re-run resumes or skips what is stored. --wait-for-server: wait up to that long for the
      server to answer first (default 0: it must answer now).`;

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
    options: {
      "swe-dataset": { type: "string" },
      "wait-for-server": { type: "string", default: "0" },
      json: { type: "boolean", default: false },
    },
  });
  const waitSeconds = Number(values["wait-for-server"]);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    console.error(`--wait-for-server: expected seconds (0 or more), got ${values["wait-for-server"]}`);
    return 2;
  }
  const log = (message: string) => console.error(`[demo] ${message}`);
  // Loaded before waiting: under `npm start` this overlaps with the server's own loading.
  const { parseSweJsonl } = await import("@raas/handlers");
  const dataset = values["swe-dataset"] ?? shippedSweDataset();
  const sweInstances = dataset ? parseSweJsonl(readFileSync(dataset, "utf8"), dataset) : [];
  if (waitSeconds > 0) {
    const waitedMs = await waitForServer(client, waitSeconds * 1_000);
    log(`the server answered after ${(waitedMs / 1_000).toFixed(1)} s of waiting`);
  }
  const summary = await runDemo({
    client,
    plan: DEMO_PLAN,
    sweInstances,
    log,
  });
  if (values.json) printJson(summary);
  else
    console.error(
      `[demo] done: ${Object.keys(summary.runs).length} training runs, ${summary.benchmarks.length} benchmark runs`,
    );
  return 0;
}

/**
 * Waits until the server answers a read (it may still be loading, as under `npm start`, which
 * starts the demo beside the server). Returns the milliseconds waited; throws after `timeoutMs`.
 */
async function waitForServer(client: RaasClient, timeoutMs: number): Promise<number> {
  const startMs = performance.now();
  for (;;) {
    try {
      await client.datasets.list.query();
      return performance.now() - startMs;
    } catch (error) {
      if (performance.now() - startMs > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
