import { parseArgs } from "node:util";
import type { TEngineStats } from "@raas/shared";
import type { RaasClient } from "../client";
import { bar, printJson } from "../output";

export const STATUS_HELP = "raas status [--watch] [--interval-ms 1000] [--json]";

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

export async function statusCommand(client: RaasClient, argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      watch: { type: "boolean", default: false },
      "interval-ms": { type: "string", default: "1000" },
      json: { type: "boolean", default: false },
    },
  });
  const intervalMs = Math.max(200, Number(values["interval-ms"]) || 1_000);
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
