// Part of `npm run check`, right after its turbo run of lint and typecheck: the same run again must
// be a full cache hit ("FULL TURBO"). A task that misses here writes into its own inputs, reads
// something turbo does not hash, or declares no outputs it restores — its cache hits are not real.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TASKS = ["lint", "lint:root", "typecheck", "typecheck:root"];

const result = spawnSync(
  join(root, "node_modules/.bin/turbo"),
  // Extra arguments (e.g. `--filter=@raas/shared`) narrow the run, for checking one package by hand.
  ["run", ...TASKS, "--output-logs=hash-only", "--ui=stream", ...process.argv.slice(2)],
  { cwd: root, encoding: "utf8", env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" } },
);
const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
if (result.status !== 0) {
  process.stderr.write(output);
  console.error(
    `[check-turbo-cache] turbo run ${TASKS.join(" ")} failed (exit ${result.status ?? result.signal})`,
  );
  process.exit(1);
}
// Lines look like `@raas/engine:typecheck: cache miss, executing 4b41d87b6a151550`.
const missed = output
  .split("\n")
  .filter((line) => /cache miss/.test(line))
  .map((line) => line.split(": cache miss")[0]?.trim());
if (missed.length > 0 || !/FULL TURBO/.test(output)) {
  console.error(
    `[check-turbo-cache] a second turbo run of ${TASKS.join(", ")} was not a full cache hit; missed: ${missed.join(", ") || "(see the output above)"}.`,
  );
  console.error(
    "[check-turbo-cache] Either the task changes its own inputs (write caches under a gitignored .cache/),\n" +
      "or a file changed between the two runs (another edit in this checkout): run `npm run check` again.",
  );
  process.exit(1);
}
console.log(`[check-turbo-cache] second run of ${TASKS.join(", ")}: FULL TURBO`);
