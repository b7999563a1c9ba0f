import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { DEMO_PLAN } from "../demo/demo-plan";
import { runDemo } from "../demo/run-demo";
import { printJson } from "../output";

interface DemoOptions {
  sweDataset?: string;
  waitForServer: string;
  json?: boolean;
}

export function declareDemo(program: Command, context: CliContext): void {
  program
    .command("demo")
    .summary("fill the server with demo data")
    .description(
      [
        "Fills the server with demo data (what `npm start` runs unless --no-demo or RAAS_DEMO=0):",
        "short training runs over the shipped math/code/swe datasets and two SWE-bench runs over the",
        "shipped fixtures, all at once; logs when every dashboard page first had data. Idempotent: a",
        "re-run resumes or skips what is stored.",
      ].join(" "),
    )
    .option(
      "--swe-dataset <file>",
      "SWE-bench instances (JSON Lines) for the benchmark runs (default: the shipped fixtures)",
    )
    .option(
      "--wait-for-server <seconds>",
      "wait up to that long for the server to answer first (0: it must answer now)",
      "0",
    )
    .option("--json", "print the summary as JSON")
    .action(async (options: DemoOptions) => {
      context.setExitCode(await demoCommand(context.client(), options));
    });
}

/** The shipped SWE fixtures, from the repository root (found upwards from the working directory). */
function shippedSweDataset(): string | undefined {
  for (let dir = process.cwd(); ; dir = resolve(dir, "..")) {
    const file = join(dir, "packages/handlers/data/swe/instances.jsonl");
    if (existsSync(file)) return file;
    if (resolve(dir, "..") === dir) return undefined;
  }
}

async function demoCommand(client: RaasClient, values: DemoOptions): Promise<number> {
  const waitSeconds = Number(values.waitForServer);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    console.error(`--wait-for-server: expected seconds (0 or more), got ${values.waitForServer}`);
    return 2;
  }
  const log = (message: string) => console.error(`[demo] ${message}`);
  // Loaded before waiting: under `npm start` this overlaps with the server's own loading.
  const { parseSweJsonl } = await import("@raas/handlers");
  const dataset = values.sweDataset ?? shippedSweDataset();
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
