import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BubblewrapRuntime, type BubblewrapRuntimeOptions, findExecutable } from "@raas/sandbox";
import { parseSweJsonl, type TSweInstance } from "../../../src/swe/swe-instance.schema";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The shipped fixture dataset. */
export const SWE_DATA_DIR = fileURLToPath(new URL("../../../data/swe/", import.meta.url));
export const SWE_BUNDLE_DIR = join(SWE_DATA_DIR, "bundles");

/** The instances any consumer can run as they are (`instances.jsonl`). */
export function loadFixtureInstances(): TSweInstance[] {
  return parseSweJsonl(readFileSync(join(SWE_DATA_DIR, "instances.jsonl"), "utf8"), "instances.jsonl");
}

/** Edge cases: needing `specs.json`, or failing evaluation on purpose (`edge-instances.jsonl`). */
export function loadEdgeInstances(): TSweInstance[] {
  return parseSweJsonl(
    readFileSync(join(SWE_DATA_DIR, "edge-instances.jsonl"), "utf8"),
    "edge-instances.jsonl",
  );
}

export function fixtureInstance(id: string): TSweInstance {
  const instance = [...loadFixtureInstances(), ...loadEdgeInstances()].find(
    (candidate) => candidate.instance_id === id,
  );
  if (!instance) throw new Error(`no fixture instance ${id}`);
  return instance;
}

/** Fails (never skips) with an install hint when bubblewrap, git or Debian's pytest is missing. */
function requireTools(): string {
  const bwrap = findExecutable("bwrap", SEARCH_PATH);
  if (!bwrap) throw new Error("the SWE tests need bubblewrap: apt-get install -y bubblewrap");
  for (const [name, hint] of [
    ["git", "apt-get install -y git"],
    ["python3", "apt-get install -y python3 python3-pytest"],
    ["patch", "apt-get install -y patch"],
  ] as const) {
    if (!findExecutable(name, SEARCH_PATH)) throw new Error(`the SWE tests need ${name}: ${hint}`);
  }
  return bwrap;
}

/** A bubblewrap runtime over a fresh base directory; `dispose` closes everything and removes it. */
export function createSweTestRuntime(options: Pick<BubblewrapRuntimeOptions, "imageCache"> = {}): {
  runtime: BubblewrapRuntime;
  dispose: () => Promise<void>;
} {
  const bwrapPath = requireTools();
  const baseDir = mkdtempSync(join(tmpdir(), "raas-swe-test-"));
  const runtime = new BubblewrapRuntime({ ...options, bwrapPath, baseDir, warn: () => {} });
  return {
    runtime,
    dispose: async () => {
      await runtime.closeAll();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
