import { type CanaryHost, type CanaryPlan, planCanaries, type ReportedOutcome } from "../base/canary/index";
import type { TSweInstance } from "./swe-instance.schema";
import { repoPath } from "./swe-shell-scripts";
import { type TestFramework, UNITTEST_NAME } from "./test-framework";
import type { TestStatus, TestStatusMap } from "./test-status.types";

/** Most test modules canaries are planted in per run. */
const MAX_HOSTS = 3;

/** The file (pytest) or module (unittest) a listed test lives in; null when the name has no such part. */
function hostOfTest(framework: TestFramework, test: string): string | null {
  if (framework === "pytest") {
    const file = test.split("::")[0] as string;
    return file.endsWith(".py") ? file : null;
  }
  const owner = UNITTEST_NAME.exec(test)?.[2];
  if (!owner) return null;
  const parts = owner.split(".");
  return parts.length > 1 ? parts.slice(0, -1).join(".") : null;
}

/**
 * Canary hosts of an instance: the modules of its FAIL_TO_PASS tests (where a forged pass earns
 * a reward), else of its PASS_TO_PASS tests, at most {@link MAX_HOSTS}; and each host's listed tests.
 */
export function sweCanaryHosts(
  instance: TSweInstance,
  framework: TestFramework,
): { hosts: CanaryHost[]; gradedTestsByHost: Map<string, string[]> } {
  const gradedTestsByHost = new Map<string, string[]>();
  const order = (tests: readonly string[]) => {
    const keys: string[] = [];
    for (const test of tests) {
      const key = hostOfTest(framework, test);
      if (key === null) continue;
      if (!gradedTestsByHost.has(key)) gradedTestsByHost.set(key, []);
      gradedTestsByHost.get(key)?.push(test);
      if (!keys.includes(key)) keys.push(key);
    }
    return keys;
  };
  const failToPass = order(instance.FAIL_TO_PASS);
  const passToPass = order(instance.PASS_TO_PASS);
  const keys = (failToPass.length > 0 ? failToPass : passToPass).slice(0, MAX_HOSTS);
  const hosts = keys.map((key) => (framework === "pytest" ? { key, path: key } : { key, module: key }));
  return { hosts, gradedTestsByHost };
}

/** A plan for an instance's hosts, named as the framework's log reports them. */
export function planSweCanaries(
  repo: string,
  framework: TestFramework,
  hosts: readonly CanaryHost[],
): CanaryPlan {
  return planCanaries({
    style: framework,
    root: repoPath(repo),
    hosts,
    testId: (host, local) => {
      if (framework === "pytest") return `${host.key}::${local}`;
      const [className, method] = local.split(".") as [string, string];
      return `${method} (${host.key}.${className})`;
    },
  });
}

/**
 * Directives that make sure the canaries run: none when a directive already covers their host (the
 * file or a directory above it for pytest, the module or a package above it for unittest) or when
 * there are no directives (the command runs what it runs: the graded tests' modules); else one per
 * canary (`file::name`, `module.Class`).
 */
export function canaryDirectives(
  framework: TestFramework,
  directives: readonly string[],
  plan: CanaryPlan,
  plantedHosts: readonly string[],
): string[] {
  if (directives.length === 0) return [];
  const extra = new Set<string>();
  for (const canary of plan.canaries) {
    if (!plantedHosts.includes(canary.host)) continue;
    const host = canary.host;
    if (framework === "pytest") {
      const covered = directives.some(
        (d) => d === host || d === "." || host.startsWith(`${d.replace(/\/$/, "")}/`),
      );
      if (!covered) extra.add(canary.id);
      continue;
    }
    const covered = directives.some((d) => d === host || host.startsWith(`${d}.`));
    const owner = UNITTEST_NAME.exec(canary.id)?.[2];
    if (!covered && owner) extra.add(owner);
  }
  return [...extra];
}

const OUTCOMES: Record<TestStatus, ReportedOutcome> = {
  PASSED: "passed",
  FAILED: "failed",
  ERROR: "error",
  SKIPPED: "skipped",
  XFAIL: "xfail",
  XPASS: "xpass",
};

/** A parsed log's statuses in the canaries' vocabulary. */
export function reportedOutcomes(statuses: TestStatusMap): Map<string, ReportedOutcome> {
  return new Map([...statuses].map(([name, status]) => [name, OUTCOMES[status]]));
}
