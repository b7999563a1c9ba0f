// The dashboard's production build, shared by `npm start` (scripts/start.mjs) and the e2e setup:
// `next build` runs only when the build is missing or older than a source it is built from.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Sources of the dashboard build: the app itself and the workspace code it imports. */
const BUILD_INPUTS = ["apps/web", "packages/shared/src", "packages/api/src", "packages/ui/src"];
// `.cache` holds typecheck state (tsbuildinfo), written by `npm run check`: not a build input.
const SKIPPED = new Set(["node_modules", ".next", ".turbo", ".cache"]);

function newestMtimeMs(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (!SKIPPED.has(entry)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  }
  return newest;
}

/** Path of Next's CLI script, run with the current node. */
export function nextBin(root) {
  const require = createRequire(join(root, "package.json"));
  return join(dirname(require.resolve("next/package.json")), "dist", "bin", "next");
}

export function hasWebBuild(root) {
  return existsSync(join(root, "apps/web/.next/BUILD_ID"));
}

export function isWebBuildStale(root) {
  if (!hasWebBuild(root)) return true;
  const builtAtMs = statSync(join(root, "apps/web/.next/BUILD_ID")).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtimeMs(join(root, input)) > builtAtMs);
}

/** Runs `next build` when the build is stale (or `force`); returns false when the build failed. */
export function ensureWebBuild(
  root,
  { force = false, log = (line) => process.stderr.write(`${line}\n`) } = {},
) {
  if (!force && !isWebBuildStale(root)) return true;
  log("building the dashboard (next build; only when its sources changed)…");
  const result = spawnSync(process.execPath, [nextBin(root), "build"], {
    cwd: join(root, "apps/web"),
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  return result.status === 0;
}

/**
 * Starts `next build` in the background when the build is stale, its output going to `logPath`
 * (not the terminal, where another suite may be printing). Resolves to true once the build is
 * there (at once when it was fresh), false when `next build` failed (its output is in `logPath`).
 * `cancel()` stops a build still running.
 */
export function startWebBuild(root, { logPath }) {
  if (!isWebBuildStale(root)) return { done: Promise.resolve(true), cancel: () => {} };
  const fd = openSync(logPath, "w");
  const child = spawn(process.execPath, [nextBin(root), "build"], {
    cwd: join(root, "apps/web"),
    stdio: ["ignore", fd, fd],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  closeSync(fd);
  const done = new Promise((resolve) => {
    child.once("error", () => resolve(false));
    child.once("exit", (code) => resolve(code === 0));
  });
  return {
    done,
    cancel: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
  };
}

/** The tail of a background build's log, for a failure message. */
export function webBuildLogTail(logPath, maxChars = 4_000) {
  return existsSync(logPath) ? readFileSync(logPath, "utf8").slice(-maxChars) : "";
}
