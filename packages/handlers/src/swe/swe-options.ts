import type { SandboxLimits } from "@raas/engine";
import type { TSweInstance } from "./swe-instance.schema";
import type { TestFramework } from "./test-framework";

/** How to set up and test one repository (optionally one version of it). */
export interface SweRepoSpec {
  /** Test framework; default: guessed from the test names (`a.py::b` pytest, `t (m.C)` unittest). */
  framework?: TestFramework;
  /**
   * Test command before the targets (test files for pytest, modules for unittest). Default
   * `python3 -m pytest -rA -v --color=no -p no:cacheprovider` / `python3 -m unittest -v`.
   */
  testCommand?: string;
  /** Shell commands run in the repository after checkout, in INIT and before evaluating. */
  setupCommands?: string[];
  /** Extra environment of the test run (over the deterministic defaults). */
  testEnv?: Record<string, string>;
}

/** Evaluation settings shared by the handler and the standalone evaluator. */
export interface SweEvalOptions {
  /** Specs by `owner/name@version` or `owner/name` (the versioned key wins). Default none. */
  repoSpecs?: Record<string, SweRepoSpec>;
  /** Time budget of the test run in ms; past it the run is killed and `testTimeout` reported. Default 900_000. */
  testTimeoutMs?: number;
  /** Time budget of checkout + each setup command in ms. Default 600_000. */
  setupTimeoutMs?: number;
  /** Run the tests for an empty patch too (normally it is graded unresolved without a sandbox). Default false. */
  evaluateEmptyPatch?: boolean;
  /** Seed of Python's `random` in test runs (through sitecustomize). Default 0. */
  seed?: number;
  /** Limits of the evaluation sandbox. Default: the runtime's. */
  sandboxLimits?: SandboxLimits;
  /** Image (rootfs) of the sandboxes. Default: the runtime's. */
  image?: string;
}

export const SWE_DEFAULTS = {
  testTimeoutMs: 900_000,
  setupTimeoutMs: 600_000,
  /** Slack on top of the test budget before the tool call itself is abandoned, in ms. */
  toolSlackMs: 30_000,
} as const;

/** The spec of an instance's repository. */
export function repoSpecFor(instance: TSweInstance, specs: SweEvalOptions["repoSpecs"] = {}): SweRepoSpec {
  return (
    (instance.version !== null ? specs[`${instance.repo}@${instance.version}`] : undefined) ??
    specs[instance.repo] ??
    {}
  );
}
