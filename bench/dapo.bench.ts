// `npm run bench -- dapo [--steps 4] [--groups 8] [--group-size 8] [--batch-groups 16]
// [--concurrency 24] [--decode-ms 5] [--tool-ms 100] [--seed 1] [--pilot 3 (0: none)] [--stream]
// [--only wait-for-all|prorl|ours|sync]`: server-side DAPO against the trainer-side baselines on
// the same workload — tasks with per-task success probabilities (always solved, never solved,
// mixed) and long-tailed trajectory lengths, every trajectory a real agent loop through a
// RolloutEngine and the simulator (the labelled GPU test double) over HTTP. See bench/dapo/README.md.
import { parseArgs } from "node:util";
import type { Bench, BenchRow } from "./bench.types";
import { ProrlStyleRunner, WaitForAllRunner } from "./dapo/baseline-strategies";
import { groupsPerHour } from "./dapo/dapo-ledger";
import { type DapoRig, type DapoRigOptions, startDapoRig } from "./dapo/dapo-rig";
import type { DapoPlan, StrategyResult, StrategyRunner } from "./dapo/dapo-strategy.types";
import { buildDapoTasks, DEFAULT_DAPO_MIX, zeroVarianceChance } from "./dapo/dapo-workload";
import { OursRunner } from "./dapo/ours-strategy";
import { WeightSyncProbe, WeightSyncRunner, weightSyncSupport } from "./dapo/weight-sync-run";
import { targetOf } from "./targets/bench-targets";
import { meetsTarget } from "./targets/target-verdict";

const TASKS = 4_000;

function positiveInt(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${flag}: expected a whole number >= 1, got "${text}"`);
  return value;
}

function positiveNumber(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`--${flag}: expected a positive number, got "${text}"`);
  return value;
}

function row(result: StrategyResult): BenchRow {
  const { ledger } = result;
  return {
    name: result.name,
    wallS: round(result.wallMs / 1_000, 1),
    informative: result.informative,
    infoGroupsPerHour: Math.round(groupsPerHour(result.informative, result.wallMs)),
    tokensPerInfoGroup: Math.round(result.simulatorTokens / Math.max(1, result.informative)),
    groups: result.groupsStarted,
    jobs: result.jobsSubmitted,
    thrownAway: result.finishedThrownAway,
    keptForLater: result.keptForLater,
    cancelledJobs: ledger.cancelled.jobs,
    cancelledTok: ledger.cancelled.generatedTokens,
    zeroVarJobs: ledger.zeroVariance.jobs,
    zeroVarTok: ledger.zeroVariance.generatedTokens,
    staleJobs: ledger.stale.jobs,
    infraJobs: ledger.infraFailures.jobs,
    thrownTok: ledger.thrownAway.generatedTokens,
    cpuS: result.cpuSeconds,
    stepsS: result.stepWallMs.map((ms) => round(ms / 1_000, 1)).join("/"),
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

const bench: Bench = {
  name: "dapo",
  description:
    "server-side DAPO (BatchSystem) vs wait-for-all-then-filter and ProRL-style early stop: informative groups/hour, tokens per informative group, finished trajectories thrown away, waste ledger; plus a weight sync mid-step",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        steps: { type: "string" },
        groups: { type: "string" },
        "group-size": { type: "string" },
        "batch-groups": { type: "string" },
        concurrency: { type: "string" },
        "decode-ms": { type: "string" },
        "tool-ms": { type: "string" },
        seed: { type: "string" },
        only: { type: "string" },
        pilot: { type: "string" },
        stream: { type: "boolean", default: false },
      },
    });
    const groupsPerStep = positiveInt("groups", values.groups, 8);
    const plan: DapoPlan = {
      steps: positiveInt("steps", values.steps, 4),
      groupsPerStep,
      groupSize: positiveInt("group-size", values["group-size"], 8),
      batchGroups: positiveInt("batch-groups", values["batch-groups"], 2 * groupsPerStep),
      overProvision: 1.5,
      pilot: values.pilot === "0" ? null : positiveInt("pilot", values.pilot, 3),
    };
    const seed = positiveInt("seed", values.seed, 1);
    const tasks = buildDapoTasks(TASKS, seed);
    const rigOptions: DapoRigOptions = {
      tasks,
      concurrency: positiveInt("concurrency", values.concurrency, 24),
      // ~45 tokens per turn: at 5 ms a token a turn is ≈ 0.25 s of simulated GPU time (few tokens, slow
      // decode: the simulated time dominates the CPU each token costs this 2-core machine).
      latency: {
        decodeMsPerToken: positiveNumber("decode-ms", values["decode-ms"], 5),
        prefillMsPerToken: 0.02,
        overheadMs: 5,
      },
      toolLatencyMs: positiveNumber("tool-ms", values["tool-ms"], 100),
      simulatorSeed: seed,
    };
    const only = values.only;
    const probe = new WeightSyncProbe();
    const sync = weightSyncSupport();
    // The comparisons use one request per turn (streaming costs CPU this machine is short of);
    // the weight-sync run streams, as abort-and-continue needs the tokens of a stopped request.
    const plain: Partial<DapoRigOptions> = { pool: { streamGenerations: values.stream === true } };
    type Make = (rig: DapoRig) => StrategyRunner;
    const entries: Array<{ key: string; make: Make; rig: Partial<DapoRigOptions> }> = [
      { key: "wait-for-all", make: (rig) => new WaitForAllRunner(rig, plan, tasks), rig: plain },
      { key: "prorl", make: (rig) => new ProrlStyleRunner(rig, plan, tasks), rig: plain },
      {
        key: "ours",
        make: (rig) => new OursRunner("ours (BatchSystem)", rig, plan, tasks, { holdBetweenSteps: true }),
        rig: plain,
      },
    ];
    const chosen = entries.filter((entry) => only === undefined || entry.key === only);
    const rigs: DapoRig[] = [];
    const results = new Map<string, StrategyResult>();
    try {
      const runners = [];
      for (const entry of chosen) {
        const rig = await startDapoRig({ ...rigOptions, ...entry.rig });
        rigs.push(rig);
        runners.push({ key: entry.key, runner: entry.make(rig), stepWallMs: [] as number[], cpuMs: 0 });
      }
      // Steps interleaved, the order rotating: outside load falls on every strategy alike.
      for (let index = 0; index < plan.steps; index += 1) {
        for (let k = 0; k < runners.length; k += 1) {
          const entry = runners[(index + k) % runners.length] as (typeof runners)[number];
          const cpu = process.cpuUsage();
          const started = performance.now();
          await entry.runner.step(index);
          entry.stepWallMs.push(performance.now() - started);
          const used = process.cpuUsage(cpu);
          entry.cpuMs += (used.user + used.system) / 1_000;
          console.log(
            `  step ${index} ${entry.runner.name}: ${((performance.now() - started) / 1_000).toFixed(1)} s (heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB)`,
          );
        }
      }
      for (const { key, runner, stepWallMs, cpuMs } of runners) {
        const wallMs = stepWallMs.reduce((a, b) => a + b, 0);
        results.set(key, await runner.finish({ wallMs, stepWallMs, cpuSeconds: round(cpuMs / 1_000, 1) }));
      }
      if (sync.isSupported && (only === undefined || only === "sync")) {
        // One step is enough to measure the sync (it comes half-way through the first step).
        const rig = await startDapoRig({ ...rigOptions, pool: probe.poolOptions });
        rigs.push(rig);
        const runner = new WeightSyncRunner(rig, plan, tasks, probe);
        const cpu = process.cpuUsage();
        const started = performance.now();
        await runner.step(0);
        const wallMs = performance.now() - started;
        const used = process.cpuUsage(cpu);
        console.log(`  step 0 ${runner.name}: ${(wallMs / 1_000).toFixed(1)} s`);
        const cpuSeconds = round((used.user + used.system) / 1e6, 1);
        results.set("sync", await runner.finish({ wallMs, stepWallMs: [wallMs], cpuSeconds }));
      }
    } finally {
      for (const rig of rigs) await rig.close();
    }
    const rate = (key: string) => {
      const result = results.get(key);
      return result ? groupsPerHour(result.informative, result.wallMs) : null;
    };
    const ratio = (a: number | null, b: number | null) => (a !== null && b ? round(a / b, 2) : null);
    const ours = results.get("ours");
    const synced = results.get("sync");
    const vsWaitForAll = ratio(rate("ours"), rate("wait-for-all"));
    const vsProrlStyle = ratio(rate("ours"), rate("prorl"));
    const mixed = tasks.filter((t) => t.probability > 0 && t.probability < 1);
    const informativeShare =
      mixed.reduce((sum, t) => sum + 1 - zeroVarianceChance(t.probability, plan.groupSize), 0) / tasks.length;
    return {
      bench: "dapo",
      description: bench.description,
      rows: [...results.values()].map(row),
      summary: {
        vsWaitForAll,
        vsProrlStyle,
        finishedThrownAway: ours?.finishedThrownAway ?? null,
        weightSyncTokensDiscarded: synced?.weightSync?.tokensDiscarded ?? null,
        ...(sync.isSupported ? {} : { weightSyncNote: sync.reason }),
        weightSyncLostInTransit: synced?.weightSync?.lostInTransit ?? null,
        weightSyncInterruptedRequests: synced?.weightSync?.interruptedRequests ?? null,
        weightSyncInterruptedTokens: synced?.weightSync?.interruptedTokens ?? null,
        weightSyncKeptTokens: synced?.weightSync?.keptTokens ?? null,
        weightSyncTurnsAfterResume: synced?.weightSync?.turnsAfterResume ?? null,
        weightSyncInFlightBeforePause: synced?.weightSync?.inFlightBeforePause ?? null,
        weightSyncIdleBeyondSyncMs: synced?.weightSync?.idleBeyondSyncMs ?? null,
        weightSyncHoldMs: synced?.weightSync?.holdMs ?? null,
        vsWaitForAllTargetMet:
          vsWaitForAll !== null && meetsTarget(targetOf("dapo", "vsWaitForAll"), vsWaitForAll),
        vsProrlStyleTargetMet:
          vsProrlStyle !== null && meetsTarget(targetOf("dapo", "vsProrlStyle"), vsProrlStyle),
        oursInformativePerHour: rate("ours") === null ? null : Math.round(rate("ours") as number),
        waitForAllInformativePerHour:
          rate("wait-for-all") === null ? null : Math.round(rate("wait-for-all") as number),
        prorlStyleInformativePerHour: rate("prorl") === null ? null : Math.round(rate("prorl") as number),
        expectedInformativeShare: round(informativeShare, 3),
        backend: "simulator (labelled test double)",
      },
      config: { plan, seed, tasks: TASKS, mix: DEFAULT_DAPO_MIX, rig: { ...rigOptions, tasks: undefined } },
    };
  },
};

export default bench;
