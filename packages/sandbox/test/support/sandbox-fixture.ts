import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BubblewrapRuntime, type BubblewrapRuntimeOptions, findExecutable } from "../../src/index";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** Fails (never skips) with an install hint when a binary a test needs is missing. */
function requireBinary(name: string, installHint: string): string {
  const path = findExecutable(name, SEARCH_PATH);
  if (!path) throw new Error(`this test needs \`${name}\`, which is not installed: ${installHint}`);
  return path;
}

export function requireBubblewrap(): string {
  return requireBinary("bwrap", "run `apt-get install -y bubblewrap`");
}

/** A bubblewrap runtime over a fresh base directory; `dispose` closes everything and removes it. */
export function createTestRuntime(options: BubblewrapRuntimeOptions = {}): {
  runtime: BubblewrapRuntime;
  baseDir: string;
  dispose: () => Promise<void>;
} {
  const bwrapPath = requireBubblewrap();
  const baseDir = mkdtempSync(join(tmpdir(), "raas-sbx-test-"));
  const runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {}, ...options });
  return {
    runtime,
    baseDir,
    dispose: async () => {
      await runtime.closeAll();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
