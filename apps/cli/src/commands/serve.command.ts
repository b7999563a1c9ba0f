import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";

export function declareServe(program: Command, context: CliContext): void {
  program
    .command("serve")
    .description("start the control plane (and the dashboard), what `npm start` runs")
    .option("--no-web", "without the dashboard")
    .option("--no-demo", "without demo data (see raas demo)")
    .action((options: { web: boolean; demo: boolean }) => {
      const argv = [...(options.web ? [] : ["--no-web"]), ...(options.demo ? [] : ["--no-demo"])];
      context.setExitCode(serveCommand(argv));
    });
}

/** Delegates to the repository's start script, which supervises the server and the dashboard. */
function serveCommand(argv: string[]): number {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
  const result = spawnSync(process.execPath, [join(root, "scripts", "start.mjs"), ...argv], {
    stdio: "inherit",
  });
  return result.status ?? 1;
}
