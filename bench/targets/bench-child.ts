// Runs one bench as `npm run bench -- <name> [args]` would, in a process of its own (benches start
// servers and workers and leave them to the process's exit), and reads back the report it wrote.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchReport } from "../bench.types";
import type { BenchOutcome } from "./target-verdict";

/** `bench/run.ts` prints this, then the results file, as its last line. */
export const WROTE_LABEL = "wrote ";

const RUN_TS = join(dirname(fileURLToPath(import.meta.url)), "..", "run.ts");

/** The results file named in a bench's output, or null when it wrote none. */
export function writtenFile(output: string): string | null {
  const lines = output.split("\n").filter((line) => line.startsWith(WROTE_LABEL));
  const last = lines.at(-1);
  return last ? last.slice(WROTE_LABEL.length).trim() : null;
}

/**
 * Runs `bench` with `args` through bench/run.ts, its output passed through to this process's, and
 * resolves with its summary, or with why there is none (the exit code and the end of its stderr).
 */
export function runBenchChild(bench: string, args: readonly string[]): Promise<BenchOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", RUN_TS, bench, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let errorTail = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      errorTail = (errorTail + chunk.toString()).slice(-400);
      process.stderr.write(chunk);
    });
    child.on("error", (error) => resolve({ kind: "failed", reason: `could not start: ${error.message}` }));
    child.on("close", (code, signal) => {
      const file = writtenFile(output);
      if (code !== 0 || !file) {
        const last = errorTail.trim().split("\n").at(-1) ?? "";
        resolve({ kind: "failed", reason: `bench exited ${code ?? signal}${last ? `: ${last}` : ""}` });
        return;
      }
      const report = JSON.parse(readFileSync(file, "utf8")) as BenchReport;
      resolve({ kind: "ran", summary: report.summary });
    });
  });
}
