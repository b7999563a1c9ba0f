// `npm test`: every test. Makes sure PostgreSQL and Redis are up, runs the vitest suites (unit,
// integration against the real services, real bubblewrap sandboxes) as turbo tasks — each
// workspace's `test` and the root's `test:root` — then the Playwright e2e suite against a
// production build of the dashboard (the turbo task `@raas/web#build`). A second run with nothing
// changed replays the vitest tasks and the build from turbo's cache. Extra arguments go to one
// direct vitest run instead (`npm test -- packages/engine`), without e2e.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  e2eTestRequirements,
  ensureSystemPackages,
  imageTestRequirements,
  infraTestRequirements,
  rolloutRequirements,
} from "./system-packages.mjs";
import { startWebBuild, webBuildLogTail } from "./web-build.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
process.env.TURBO_TELEMETRY_DISABLED ??= "1";
/**
 * One workspace at a time: apps/server holds over half of the suite's test time, so it needs
 * vitest's two workers (vitest.config.ts) to itself; two tasks side by side would put four test
 * files on two cores. `--continue` runs every task after a failure, so CI shows all failures.
 */
const TURBO_TEST_ARGS = [
  "run",
  "test",
  "test:root",
  "--concurrency=1",
  "--continue",
  "--output-logs=new-only",
  "--ui=stream",
];
const run = (label, command, args) => {
  console.log(`\n[test] ${label}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`[test] ${label} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
};

// The sandbox and grader tests need bubblewrap, python3 + pytest and git, the image tests
// mmdebstrap, umoci, skopeo, squashfs-tools and siftool, the infra/ tests shellcheck,
// systemd-analyze and PyYAML, the e2e suite chromium: install them (root + apt) or
// stop now with the command, rather than fail hundreds of tests one by one.
const withE2e = process.argv.length <= 2 && existsSync(join(root, "e2e/playwright.config.ts"));
const requirements = [
  ...rolloutRequirements(),
  ...imageTestRequirements(),
  ...infraTestRequirements(),
  ...(withE2e ? e2eTestRequirements() : []),
];
if (!ensureSystemPackages(requirements, { label: "test" })) process.exit(1);
run("services", process.execPath, [join(root, "scripts/ensure-services.mjs")]);
// The e2e suite's dashboard build (`next build`, a minute or two of CPU) runs in the background
// while vitest runs, whose suites mostly wait on sandboxes and services; e2e waits for it.
const webBuildLog = join(root, ".cache/web-build.log");
let webBuild = null;
if (withE2e) {
  mkdirSync(dirname(webBuildLog), { recursive: true });
  console.log(`\n[test] building the dashboard for e2e in the background (log: ${webBuildLog})`);
  webBuild = startWebBuild(root, { logPath: webBuildLog });
  process.once("exit", () => webBuild?.cancel());
}
const vitestArgs = process.argv.slice(2);
if (vitestArgs.length > 0) run("vitest", "npx", ["vitest", "run", ...vitestArgs]);
else run("vitest (turbo)", join(root, "node_modules/.bin/turbo"), TURBO_TEST_ARGS);
if (webBuild) {
  if (!(await webBuild.done)) {
    console.error(`${webBuildLogTail(webBuildLog)}\n[test] next build failed; its log: ${webBuildLog}`);
    process.exit(1);
  }
  run("e2e", "npx", ["playwright", "test", "-c", "e2e/playwright.config.ts"]);
}
console.log("\n[test] all suites passed");
