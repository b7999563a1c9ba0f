import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const SERVE_HELP =
  "raas serve [--no-web]   start the control plane (and the dashboard), what `npm start` runs";

/** Delegates to the repository's start script, which supervises the server and the dashboard. */
export function serveCommand(argv: string[]): number {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
  const result = spawnSync(process.execPath, [join(root, "scripts", "start.mjs"), ...argv], {
    stdio: "inherit",
  });
  return result.status ?? 1;
}
