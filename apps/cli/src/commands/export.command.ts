import { createWriteStream, type WriteStream } from "node:fs";
import type { TTrajectoryExport } from "@raas/shared";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";

const DEFAULT_PAGE_SIZE = 16;

/** Writes a line, waiting for the stream to drain when its buffer is full. */
async function writeLine(out: NodeJS.WritableStream, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
}

function closeStream(out: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    out.once("error", reject);
    out.end(() => resolve());
  });
}

class ExportTally {
  rows = 0;
  trainable = 0;
  notExact: string[] = [];

  add(row: TTrajectoryExport): void {
    this.rows += 1;
    if (row.trainable) this.trainable += 1;
    if (!row.tokenExact) this.notExact.push(row.jobId);
  }

  summary(target: string): string {
    const lines = [`exported ${this.rows} trajectories to ${target} (${this.trainable} trainable)`];
    if (this.notExact.length > 0) {
      lines.push(
        `warning: ${this.notExact.length} not token-exact (tokenExact: false; see tokenBreak): ${this.notExact.slice(0, 5).join(", ")}${this.notExact.length > 5 ? ", …" : ""}`,
      );
    }
    return lines.join("\n");
  }
}

interface ExportOptions {
  job?: string;
  batch?: string;
  out?: string;
  pageSize?: string;
}

export function declareExport(program: Command, context: CliContext): void {
  program
    .command("export")
    .summary("trajectories for training as JSON Lines")
    .description(
      "Trajectories for training as JSON Lines (flat tokens, loss mask, logprobs, reward; see /openapi.json): " +
        "one row per job to stdout or --out FILE; progress and a summary go to stderr.",
    )
    .option("--job <id>", "export this job")
    .option("--batch <id>", "export every job of this batch")
    .option("--out <file>", "write to FILE instead of stdout")
    .option("--page-size <n>", `jobs per request with --batch, 1 to 100 (default ${DEFAULT_PAGE_SIZE})`)
    .action(async (options: ExportOptions) => {
      context.setExitCode(await exportCommand(context.client(), options));
    });
}

async function exportCommand(client: RaasClient, values: ExportOptions): Promise<number> {
  if ((values.job === undefined) === (values.batch === undefined)) {
    throw new Error("give exactly one of --job or --batch (see raas export --help)");
  }
  const pageSize = values.pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(values.pageSize);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    throw new Error(`--page-size must be an integer from 1 to 100, got ${values.pageSize}`);
  }
  const file = values.out === undefined ? null : createWriteStream(values.out, { flags: "w" });
  const out = file ?? process.stdout;
  const target = values.out ?? "stdout";
  const tally = new ExportTally();
  const progress = process.stderr.isTTY ? (text: string) => process.stderr.write(`\r${text}`) : null;
  try {
    if (values.job !== undefined) {
      const row = await client.jobs.export.query({ jobId: values.job });
      tally.add(row);
      await writeLine(out, JSON.stringify(row));
    } else {
      const batchId = values.batch as string;
      let cursor: string | undefined;
      do {
        const page = await client.jobs.exportBatch.query({
          batchId,
          limit: pageSize,
          ...(cursor ? { cursor } : {}),
        });
        for (const row of page.items) {
          tally.add(row);
          await writeLine(out, JSON.stringify(row));
        }
        cursor = page.nextCursor ?? undefined;
        const line = `batch ${batchId}: ${tally.rows} trajectories exported${cursor ? ", more to come" : ""}`;
        if (progress) progress(line);
        else if (cursor) process.stderr.write(`${line}\n`);
      } while (cursor);
      if (progress) process.stderr.write("\n");
    }
  } finally {
    if (file) await closeStream(file);
  }
  process.stderr.write(`${tally.summary(target)}\n`);
  return 0;
}
