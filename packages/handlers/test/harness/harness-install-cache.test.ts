// The harness install cache against the real npm registry: a small pinned package installed
// once into a temporary cache, reused, and installed once when callers (two caches: as two
// processes sharing the directory would) ask at the same time. npm runs through a wrapper that
// counts its installs.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createHarnessInstallCache } from "../../src/harness/recipes/harness-install-cache";

const PACKAGE = { npmPackage: "is-number", version: "7.0.0" };
const root = mkdtempSync(join(tmpdir(), "raas-harness-cache-test-"));
const log = join(root, "npm-calls.log");
const npm = join(root, "counting-npm");
// A missing npm must fail loudly, never skip: the test needs the real client.
const realNpm = execFileSync("bash", [
  "-c",
  "command -v npm || { echo 'install npm (node >= 20)' >&2; exit 1; }",
])
  .toString()
  .trim();
writeFileSync(npm, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realNpm}' "$@"\n`);
chmodSync(npm, 0o755);
const installs = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").length : 0);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("harness install cache", () => {
  it("installs concurrent callers' package once, then reuses it", async () => {
    const cacheDir = join(root, "cache");
    const first = createHarnessInstallCache({ cacheDir, npmPath: npm });
    const second = createHarnessInstallCache({ cacheDir, npmPath: npm, pollMs: 50 });
    const dirs = await Promise.all([
      first.ensureInstalled(PACKAGE),
      first.ensureInstalled(PACKAGE),
      second.ensureInstalled(PACKAGE),
    ]);
    expect(new Set(dirs)).toEqual(new Set([join(cacheDir, "is-number@7.0.0")]));
    expect(installs()).toBe(1);
    const manifest = JSON.parse(readFileSync(join(dirs[0]!, "node_modules/is-number/package.json"), "utf8"));
    expect(manifest.version).toBe("7.0.0");
    // Only the installed entry is left: no staging directory, no lock.
    expect(readdirSync(cacheDir)).toEqual(["is-number@7.0.0"]);

    const again = createHarnessInstallCache({ cacheDir, npmPath: npm });
    expect(await again.ensureInstalled(PACKAGE)).toBe(dirs[0]);
    expect(installs()).toBe(1);
  }, 180_000);

  it("says which package failed and what npm said", async () => {
    const cacheDir = join(root, "failing");
    const cache = createHarnessInstallCache({ cacheDir, npmPath: npm });
    const missing = { npmPackage: "is-number", version: "999.0.0" };
    await expect(cache.ensureInstalled(missing)).rejects.toThrow(
      /installing the harness package is-number@999\.0\.0 with `.*counting-npm install` failed: .*(ETARGET|No matching version)/s,
    );
    expect(readdirSync(cacheDir)).toEqual([]);
  }, 180_000);
});
