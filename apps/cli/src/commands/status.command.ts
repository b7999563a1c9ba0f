import type { TEngineStats } from "@raas/shared";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { bar, printJson } from "../output";

interface StatusOptions {
  watch?: boolean;
  intervalMs: string;
  json?: boolean;
}

export function declareStatus(program: Command, context: CliContext): void {
  program
    .command("status")
    .description("per-stage queue counts, failures and throughput")
    .option("--watch", "redraw until interrupted")
    .option("--interval-ms <ms>", "time between redraws with --watch (at least 200)", "1000")
    .option("--json", "print the stats as JSON")
    .action(async (options: StatusOptions) => {
      context.setExitCode(await statusCommand(context.client(), options));
    });
}

export function render(stats: TEngineStats): string {
  const lines = ["stage  queued  active/slots"];
  for (const stage of ["init", "run", "eval"] as const) {
    const { queued, active, concurrency } = stats.stages[stage];
    lines.push(
      `${stage.toUpperCase().padEnd(5)}  ${String(queued).padStart(6)}  ${`${active}/${concurrency}`.padStart(12)} ${bar(active, concurrency, 20)}`,
    );
  }
  const failed = Object.entries(stats.failedByKind)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ");
  // Labelled failures are part of their kind (`tampered` of `agent`): said after the kinds.
  const labelled = Object.entries(stats.failedByLabel)
    .filter(([, n]) => n > 0)
    .map(([label, n]) => `${label} ${n}`)
    .join(", ");
  lines.push(
    `submitted ${stats.submitted}  completed ${stats.completed}  cancelled ${stats.cancelled}  failed: ${failed || "none"}${labelled ? ` (of which ${labelled})` : ""}`,
  );
  lines.push(
    `throughput ${stats.throughputPerSec.toFixed(2)} jobs/s (last ${stats.throughputWindowMs / 1_000}s)`,
  );
  return lines.join("\n");
}

async function statusCommand(client: RaasClient, values: StatusOptions): Promise<number> {
  const intervalMs = Math.max(200, Number(values.intervalMs) || 1_000);
  for (;;) {
    const stats = await client.system.stats.query();
    if (values.json) printJson(stats);
    else {
      if (values.watch && process.stdout.isTTY) process.stdout.write("\x1b[2J\x1b[H");
      console.log(render(stats));
    }
    if (!values.watch) return 0;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
