import { randomInt } from "node:crypto";
import type { Sandbox } from "@raas/engine";
import { stageFailure } from "@raas/shared";
import type { Canary } from "./canary.types";
import { CANARY_PLANTER_PY, parsePlantedHosts } from "./canary-planter.script";
import { type CanarySource, pytestCanarySource, unittestCanarySource } from "./canary-source";

/** A test module to plant canaries in: a file path or a dotted module name, relative to the root. */
export interface CanaryHost {
  /** How the grader names the host (a node id's file part, a module label). */
  key: string;
  path?: string;
  module?: string;
}

/** The canaries of one grading run, before they are planted. */
export interface CanaryPlan {
  canaries: Canary[];
  /** The planter's stdin. */
  planterInput: string;
}

export interface PlanCanariesInput {
  /** `pytest`: test functions (and a raising fixture); `unittest`: one TestCase class. */
  style: "pytest" | "unittest";
  /** Absolute directory the hosts' paths and modules are relative to. */
  root: string;
  hosts: readonly CanaryHost[];
  /** The name the run reports a canary under, from its host and its local name (`fn` or `Class.method`). */
  testId(host: CanaryHost, local: string): string;
}

/** Fresh canaries for every host (new names and positions each call). */
export function planCanaries(input: PlanCanariesInput): CanaryPlan {
  const canaries: Canary[] = [];
  const hosts = input.hosts.map((host) => {
    const source: CanarySource = input.style === "pytest" ? pytestCanarySource() : unittestCanarySource();
    for (const test of source.tests) {
      canaries.push({ id: input.testId(host, test.local), expect: test.expect, host: host.key });
    }
    return {
      key: host.key,
      path: host.path ?? null,
      module: host.module ?? null,
      chunks: source.chunks.map((chunk) => ({ source: chunk, at: randomInt(1_000_000) / 1_000_000 })),
    };
  });
  return { canaries, planterInput: JSON.stringify({ root: input.root, hosts }) };
}

/**
 * Plants a plan's canaries in the sandbox (isolated Python; none of the policy's code runs) and
 * returns the hosts planted in. The planter failing is the grader's problem: `stageFailure('eval')`.
 */
export async function plantCanaries(
  sandbox: Sandbox,
  plan: CanaryPlan,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<string[]> {
  const run = await sandbox.exec(["python3", "-I", "-S", "-c", CANARY_PLANTER_PY], {
    stdin: plan.planterInput,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  const planted = run.exitCode === 0 ? parsePlantedHosts(run.stdout) : null;
  if (planted === null) {
    throw stageFailure(
      "eval",
      `planting canary tests failed (exit ${run.exitCode ?? run.signal}): ${`${run.stdout}\n${run.stderr}`.trim().slice(-600)}`,
    );
  }
  return planted;
}
