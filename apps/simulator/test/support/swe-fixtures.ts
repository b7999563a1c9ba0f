// The SWE fixture dataset shipped with @raas/handlers (instances + git bundles), and the host
// tools a SWE rollout needs besides bubblewrap.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSweJsonl, type TSweInstance } from "@raas/handlers";
import { findExecutable } from "@raas/sandbox";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const SWE_DATA_DIR = fileURLToPath(new URL("../../../../packages/handlers/data/swe/", import.meta.url));

/** Git bundles of the fixture repositories, one per repository. */
export const SWE_BUNDLE_DIR = join(SWE_DATA_DIR, "bundles");

/** One instance of the fixture dataset by id; throws when it is not there. */
export function fixtureInstance(id: string): TSweInstance {
  const text = readFileSync(join(SWE_DATA_DIR, "instances.jsonl"), "utf8");
  const instance = parseSweJsonl(text, "instances.jsonl").find((candidate) => candidate.instance_id === id);
  if (!instance) throw new Error(`no fixture instance ${id}`);
  return instance;
}

/** Fails (never skips) with an install hint when git, python3 or patch is missing. */
export function requireSweTools(): void {
  for (const [name, hint] of [
    ["git", "apt-get install -y git"],
    ["python3", "apt-get install -y python3 python3-pytest"],
    ["patch", "apt-get install -y patch"],
  ] as const) {
    if (!findExecutable(name, SEARCH_PATH)) throw new Error(`the SWE tests need ${name}: ${hint}`);
  }
}
