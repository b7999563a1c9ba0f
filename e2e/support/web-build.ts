import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Inputs of the dashboard's production build; a change in any of them makes the build stale. */
const BUILD_INPUTS = ["apps/web/src", "apps/web/env.ts", "apps/web/next.config.ts", "apps/web/package.json"];

function newestMtimeMs(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtimeMs(join(path, entry))), 0);
}

/**
 * Runs `next build` unless a build newer than every input exists (`RAAS_E2E_REBUILD=1` forces
 * it). The build is the slow part of the suite (about a minute on 2 cores), so it is reused.
 */
export function ensureWebBuild(root: string, nextBin: string): void {
  const buildId = join(root, "apps/web/.next/BUILD_ID");
  const builtAtMs = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const inputsAtMs = Math.max(...BUILD_INPUTS.map((input) => newestMtimeMs(join(root, input))));
  if (!process.env.RAAS_E2E_REBUILD && builtAtMs > inputsAtMs) return;
  process.stderr.write("[e2e] building apps/web (next build)…\n");
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: join(root, "apps/web"),
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
}
