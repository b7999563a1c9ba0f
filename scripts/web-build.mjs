// The dashboard's production build, shared by `npm start` (scripts/start.mjs), `npm test` and the
// e2e setup: the turbo task `@raas/web#build` (`next build`, outputs `.next/**`). Turbo hashes its
// inputs — apps/web and, through `^transit`, the workspace packages it imports — so `next build`
// runs only when one of them changed; otherwise turbo restores `.next` from its cache.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** `turbo run build` for the dashboard only; `force` ignores the cache. */
function turboBuild(root, force) {
  const args = ["run", "build", "--filter=@raas/web", "--output-logs=new-only", "--ui=stream"];
  return {
    command: join(root, "node_modules/.bin/turbo"),
    args: force ? [...args, "--force"] : args,
    options: {
      cwd: root,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", NEXT_TELEMETRY_DISABLED: "1" },
    },
  };
}

/** Path of Next's CLI script, run with the current node. */
export function nextBin(root) {
  const require = createRequire(join(root, "package.json"));
  return join(dirname(require.resolve("next/package.json")), "dist", "bin", "next");
}

export function hasWebBuild(root) {
  return existsSync(join(root, "apps/web/.next/BUILD_ID"));
}

/** Builds the dashboard, or restores it from turbo's cache; returns false when the build failed. */
export function ensureWebBuild(
  root,
  { force = false, log = (line) => process.stderr.write(`${line}\n`) } = {},
) {
  log("dashboard build: turbo run build --filter=@raas/web (a cache hit unless its sources changed)…");
  const { command, args, options } = turboBuild(root, force);
  return spawnSync(command, args, { ...options, stdio: "inherit" }).status === 0;
}

/**
 * Starts the dashboard build in the background, its output going to `logPath` (not the terminal,
 * where another suite may be printing). Resolves to true once the build is in `.next` (built or
 * restored from the cache), false when it failed (its output is in `logPath`). `cancel()` stops a
 * build still running.
 */
export function startWebBuild(root, { logPath }) {
  const { command, args, options } = turboBuild(root, false);
  const fd = openSync(logPath, "w");
  const child = spawn(command, args, { ...options, stdio: ["ignore", fd, fd] });
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
