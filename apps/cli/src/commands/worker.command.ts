import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";

export function declareWorker(program: Command, context: CliContext): void {
  program
    .command("worker")
    .summary("start a worker of distributed mode")
    .description(
      "Starts a worker of distributed mode, configured by environment variables only " +
        "(RAAS_QUEUE, DATABASE_URL, RAAS_WORKER_POOLS; see apps/worker). SIGTERM drains it.",
    )
    // Anything else is refused by the action, in the words it always used.
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      context.setExitCode(await workerCommand(command.args));
    });
}

/**
 * Runs apps/worker's main in a child process (apps do not import each other) with this
 * environment, passing SIGTERM/SIGINT on, so a signal drains the worker; resolves to its exit code.
 */
function workerCommand(argv: string[]): Promise<number> {
  if (argv.length > 0) {
    console.error(
      `raas worker takes no arguments (got ${argv.join(" ")}); configure it with environment variables`,
    );
    return Promise.resolve(2);
  }
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
  // The loader, not tsx's CLI: one process, so the worker's pid is the one Slurm and systemd see.
  const loader = join(
    dirname(createRequire(import.meta.url).resolve("tsx/package.json")),
    "dist",
    "loader.mjs",
  );
  const main = join(root, "apps", "worker", "src", "main.ts");
  const child = spawn(process.execPath, ["--import", pathToFileURL(loader).href, main], {
    stdio: "inherit",
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGTERM", forward);
  process.on("SIGINT", forward);
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      process.off("SIGTERM", forward);
      process.off("SIGINT", forward);
      resolve(code ?? (signal ? 128 + 15 : 1));
    });
  });
}
