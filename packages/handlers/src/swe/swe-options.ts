import type { SandboxLimits } from "@raas/engine";
import type { TSweRepoSpec } from "./swe-repo-spec.schema";

/** How to set up and test one repository (optionally one version of it); see `ZSweRepoSpec`. */
export type SweRepoSpec = TSweRepoSpec;

/** Evaluation settings shared by the handler and the standalone evaluator. */
export interface SweEvalOptions {
  /**
   * Specs by `owner/name@version` or `owner/name` (the versioned key wins), e.g. loaded with
   * `loadSweRepoSpecs(file)`. A job's own `spec` overrides fields of the matching entry. Default none.
   */
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
  /** Image (rootfs directory or SIF) of every sandbox when neither a spec nor `imagePattern` names one. Default: the runtime's. */
  image?: string;
  /**
   * Per-instance environment images: a path with `{instance_id}`, `{repo}` (`owner__name`),
   * `{owner}`, `{name}` and `{version}` placeholders, e.g. `/images/swe/{repo}__{version}.sif` or
   * `/images/rootfs/{instance_id}`. The first existing path among the pattern's expansions is
   * used; none existing is an `eval` failure. A spec's `image` wins over the pattern. Default none.
   */
  imagePattern?: string | string[];
}

export const SWE_DEFAULTS = {
  testTimeoutMs: 900_000,
  setupTimeoutMs: 600_000,
  /** Slack on top of the test budget before the command itself is killed, in ms. */
  toolSlackMs: 30_000,
} as const;
