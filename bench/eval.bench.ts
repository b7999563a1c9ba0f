// `npm run bench -- eval [--evaluations 500] [--concurrency 4] [--no-load]`: evaluations (code
// hidden tests and SWE fixture instances, honest and wrong solutions, and grader attacks) through
// the real graders and bubblewrap sandboxes, with one busy-loop process per core beside them.
// Every evaluation has a known expected reward; a different reward is a misgrade, a thrown
// failure is an infrastructure failure. A hostile share of the items are reward-forging attempts
// (`@raas/handlers/testing`: test-run configuration, code in the test process, forged reports):
// none may earn a reward (`forgedRewards`), and every one whose code reached the test run must be
// caught by the canaries (`tamperedDetected` = `forgingAttemptsReachingRun`); an honest item
// called tampered is a misgrade. Target: 0 misgrades, infrastructure failures and forged rewards.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createBundleDirRepoSource,
  evaluateSwePatch,
  parseSweJsonl,
  runHiddenTests,
  type TCodePayload,
  type TSweInstance,
} from "@raas/handlers";
import {
  codeUnittestForgeries,
  type Forgery,
  slugkitForgeries,
  tinystatsForgeries,
} from "@raas/handlers/testing";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { failureOf, isStageFailureData } from "@raas/shared";
import type { Bench, BenchReport, BenchRow } from "./bench.types";
import { median, percentile } from "./stats";
import { targetOf } from "./targets/bench-targets";
import { isTargetMet, meetsTarget } from "./targets/target-verdict";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const SWE_DATA = fileURLToPath(new URL("../packages/handlers/data/swe/", import.meta.url));

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? Number(args[at + 1]) : fallback;
}

interface Item {
  kind: string;
  /** What exactly runs (progress lines). */
  label?: string;
  expectedReward: number;
  /**
   * A forging attempt: `in-process` when its code reaches the test run (the canaries must call it
   * tampered), `neutralized` when the grader's configuration keeps it from loading at all.
   */
  forging?: "in-process" | "neutralized";
  run(runtime: BubblewrapRuntime): Promise<{ reward: number; tampered: boolean }>;
}

const STDIO: TCodePayload["tests"] = {
  kind: "stdio",
  cases: [
    { input: "3\n", output: "6\n" },
    { input: "11\n", output: "22\n" },
    { input: "0\n", output: "0\n" },
  ],
  timeLimitMs: 2_000,
};
const UNITTEST: TCodePayload["tests"] = {
  kind: "unittest",
  code: "import unittest\nfrom solution import double\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(double(3), 6)\n    def test_b(self):\n        self.assertEqual(double(-4), -8)\n",
  timeLimitMs: 10_000,
};
// A silent honest solution: waits quietly on a child (what the old silence heuristic interrupted).
const QUIET = `import subprocess, sys\nsubprocess.run([sys.executable, "-c", "import time; time.sleep(1.5)"], capture_output=True)\nprint(int(input()) * 2)\n`;
// The results-file daemon that earned reward 1 against the old runner.
const DAEMON = `import os, json\nn = int(input())\nif os.fork() == 0:\n    os.setsid()\n    import time\n    for _ in range(100):\n        try:\n            os.makedirs(".raas", exist_ok=True)\n            json.dump({"cases": [{"status": "passed"}]}, open(".raas/results.json", "w"))\n        except Exception:\n            pass\n        time.sleep(0.02)\n    os._exit(0)\nprint(n + 1)\n`;

function codeItem(
  kind: string,
  solution: string,
  tests: TCodePayload["tests"],
  expectedReward: number,
  forging?: Item["forging"],
): Item {
  return {
    kind,
    expectedReward,
    ...(forging && { forging }),
    async run(runtime) {
      const { cases, canaries } = await runHiddenTests({
        openSandbox: (spec = {}) => runtime.create(spec),
        solutionPath: "solution.py",
        solution,
        tests,
        signal: new AbortController().signal,
      });
      // As the code handler grades: a canary that lied voids the grade (reward 0, tampered).
      const tampered = (canaries?.lies.length ?? 0) > 0;
      return { reward: !tampered && cases.every((c) => c.status === "passed") ? 1 : 0, tampered };
    },
  };
}

const forgingOf = (forgery: Forgery): Item["forging"] => (forgery.inProcess ? "in-process" : "neutralized");

function sweItems(repoSource: ReturnType<typeof createBundleDirRepoSource>): Item[] {
  const instances: TSweInstance[] = parseSweJsonl(
    readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8"),
    "instances.jsonl",
  );
  const item = (
    instance: TSweInstance,
    patch: string,
    expectedReward: number,
    kind: string,
    forging?: Item["forging"],
  ): Item => ({
    kind,
    label: `${kind} ${instance.instance_id}`,
    expectedReward,
    ...(forging && { forging }),
    async run(runtime) {
      const report = await evaluateSwePatch({
        instance,
        modelPatch: patch,
        repoSource,
        openSandbox: (spec) => runtime.create(spec),
        // The unfixed textwrapper loops forever on long words: its empty patch ends by this limit.
        options: { evaluateEmptyPatch: true, testTimeoutMs: 30_000 },
      });
      return { reward: report.resolved ? 1 : 0, tampered: report.tampered };
    },
  });
  const byId = (id: string) => instances.find((instance) => instance.instance_id === id) as TSweInstance;
  const hostile = [
    ...tinystatsForgeries().map((forgery) => [byId("raas-fixtures__tinystats-1"), forgery] as const),
    ...slugkitForgeries().map((forgery) => [byId("raas-fixtures__slugkit-7"), forgery] as const),
  ].map(([instance, forgery]) =>
    item(instance, forgery.source, 0, `swe forgery: ${forgery.name}`, forgingOf(forgery)),
  );
  return [
    ...instances.flatMap((instance) => [
      item(instance, String(instance.patch ?? ""), 1, "swe gold patch"),
      item(instance, "", 0, "swe empty patch"),
    ]),
    ...hostile,
  ];
}

function startLoad(cores: number): ChildProcess[] {
  return Array.from({ length: cores }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
}

const bench: Bench = {
  name: "eval",
  description:
    "evaluations (code hidden tests: honest, wrong, silent, attacking; SWE fixtures: gold and empty patches; a hostile share of reward-forging attempts) in bubblewrap sandboxes with one busy loop per core; misgrades, infrastructure failures, forged rewards, tampered grades caught",
  async run(args): Promise<BenchReport> {
    const total = option(args, "evaluations", 500);
    const concurrency = option(args, "concurrency", 4);
    const withLoad = !args.includes("--no-load");
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("the eval bench needs bubblewrap: apt-get install -y bubblewrap");
    const baseDir = mkdtempSync(join(tmpdir(), "raas-bench-eval-"));
    const runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });
    const repoSource = createBundleDirRepoSource({ dir: join(SWE_DATA, "bundles") });
    const catalogue: Item[] = [
      codeItem("code stdio honest", "print(int(input()) * 2)\n", STDIO, 1),
      codeItem("code stdio wrong", "print(int(input()) + 2)\n", STDIO, 0),
      codeItem("code stdio silent", QUIET, { ...STDIO, cases: [STDIO.cases[0]!] }, 1),
      codeItem("code stdio results daemon", DAEMON, STDIO, 0),
      codeItem("code unittest honest", "def double(x):\n    return 2 * x\n", UNITTEST, 1),
      codeItem("code unittest wrong", "def double(x):\n    return x\n", UNITTEST, 0),
      codeItem("code unittest exit", "import os\nos._exit(0)\n", UNITTEST, 0),
      ...codeUnittestForgeries().map((forgery) =>
        codeItem(`code forgery: ${forgery.name}`, forgery.source, UNITTEST, 0, forgingOf(forgery)),
      ),
      ...sweItems(repoSource),
    ];
    const work = Array.from({ length: total }, (_, index) => catalogue[index % catalogue.length]!);
    const load = withLoad ? startLoad(availableParallelism()) : [];
    const outcomes: Array<{
      kind: string;
      ms: number;
      misgraded: boolean;
      failure: string | null;
      forging: Item["forging"] | null;
      reward: number | null;
      tampered: boolean;
    }> = [];
    const startedAt = performance.now();
    let next = 0;
    try {
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < work.length) {
            const item = work[next++]!;
            const itemStart = performance.now();
            if (process.env.RAAS_BENCH_VERBOSE) console.error(`[eval] start ${item.label ?? item.kind}`);
            try {
              const { reward, tampered } = await item.run(runtime);
              const forging = item.forging ?? null;
              // Honest items are never tampered; forgeries are tampered exactly when their code reached the run.
              const misgraded = reward !== item.expectedReward || tampered !== (forging === "in-process");
              if (misgraded)
                console.error(
                  `[eval] misgrade ${item.label ?? item.kind}: reward ${reward}, tampered ${tampered}`,
                );
              outcomes.push({
                kind: item.kind,
                ms: performance.now() - itemStart,
                misgraded,
                failure: null,
                forging,
                reward,
                tampered,
              });
            } catch (error) {
              const failure = failureOf(error);
              const kind = isStageFailureData(failure) ? failure.kind : "error";
              const message = error instanceof Error ? error.message : String(error);
              console.error(`[eval] ${item.kind}: ${kind}: ${message.slice(0, 300)}`);
              outcomes.push({
                kind: item.kind,
                ms: performance.now() - itemStart,
                misgraded: false,
                failure: kind,
                forging: item.forging ?? null,
                reward: null,
                tampered: false,
              });
            }
            if (outcomes.length % 50 === 0 || process.env.RAAS_BENCH_VERBOSE)
              console.error(`[eval] ${outcomes.length}/${total} ${item.label ?? item.kind}`);
          }
        }),
      );
    } finally {
      for (const child of load) child.kill("SIGKILL");
      await runtime.closeAll();
      await repoSource.close();
      rmSync(baseDir, { recursive: true, force: true });
    }
    const elapsedS = (performance.now() - startedAt) / 1_000;
    const kinds = [...new Set(outcomes.map((o) => o.kind))];
    const rows: BenchRow[] = kinds.map((kind) => {
      const mine = outcomes.filter((o) => o.kind === kind);
      const ms = mine.map((o) => o.ms);
      return {
        name: kind,
        evaluations: mine.length,
        misgrades: mine.filter((o) => o.misgraded).length,
        failures: mine.filter((o) => o.failure !== null).length,
        p50Ms: Math.round(median(ms)),
        p95Ms: Math.round(percentile(ms, 95)),
      };
    });
    const all = outcomes.map((o) => o.ms);
    const failuresByKind: Record<string, number> = {};
    for (const o of outcomes) if (o.failure) failuresByKind[o.failure] = (failuresByKind[o.failure] ?? 0) + 1;
    const misgrades = outcomes.filter((o) => o.misgraded).length;
    const infrastructureFailures = outcomes.filter((o) => o.failure !== null).length;
    const forgeries = outcomes.filter((o) => o.forging !== null);
    const forgedRewards = forgeries.filter((o) => (o.reward ?? 0) > 0).length;
    const forgingAttemptsReachingRun = forgeries.filter((o) => o.forging === "in-process").length;
    const tamperedDetected = outcomes.filter((o) => o.tampered).length;
    rows.push({
      name: "all",
      evaluations: outcomes.length,
      misgrades,
      failures: infrastructureFailures,
      p50Ms: Math.round(median(all)),
      p95Ms: Math.round(percentile(all, 95)),
    });
    const met = (key: string, figure: number) => meetsTarget(targetOf("eval", key), figure);
    return {
      bench: "eval",
      description: bench.description,
      rows,
      summary: {
        evaluations: outcomes.length,
        misgrades,
        infrastructureFailures,
        forgingAttempts: forgeries.length,
        forgingAttemptsReachingRun,
        forgedRewards,
        tamperedDetected,
        hostileShare: Math.round((forgeries.length / Math.max(1, outcomes.length)) * 100) / 100,
        failuresByKind: JSON.stringify(failuresByKind),
        evaluationsPerSec: Math.round((outcomes.length / elapsedS) * 100) / 100,
        p50Ms: Math.round(median(all)),
        p95Ms: Math.round(percentile(all, 95)),
        busyLoops: load.length,
        // 500 evaluations is the size the issue asks of a full run; the rest are declared targets.
        targetMet:
          outcomes.length >= 500 &&
          met("misgrades", misgrades) &&
          met("infrastructureFailures", infrastructureFailures) &&
          met("forgedRewards", forgedRewards) &&
          isTargetMet(targetOf("eval", "tamperedDetected"), tamperedDetected, forgingAttemptsReachingRun),
      },
      config: { total, concurrency, withLoad, cores: availableParallelism() },
    };
  },
};

export default bench;
