// `npm run bench -- chaos [--quick]`: a distributed deployment (API-only server, two workers,
// PostgreSQL and Redis of its own, real bubblewrap sandboxes, the simulator as inference) runs a
// mixed real workload twice — fault-free, then while a driver injects, in an order shuffled with
// a fixed seed, worker kill -9, worker SIGTERM, API-server kill, Redis restart, PostgreSQL restart
// (10 s and 60 s down), an inference outage and a full sandbox disk — and reckons what was lost,
// doubled, leaked, left stale or stuck, how fast throughput came back, and at what cost.
// Needs root (the sandbox disks are tmpfs mounts). See bench/chaos/README.md.
import { parseArgs } from "node:util";
import { seededRandom } from "@raas/shared";
import type { Bench } from "./bench.types";
import { auditChaos } from "./chaos/audit";
import { FAULT_KINDS, type FaultKind, QUICK_FAULTS } from "./chaos/chaos.types";
import { ChaosCluster } from "./chaos/chaos-cluster";
import { buildReport, phaseRate } from "./chaos/chaos-report";
import { driveFaults, shuffleFaults } from "./chaos/fault-driver";
import { DEFAULT_RECOVERY } from "./chaos/recovery";
import { buildWorkload, expectedRewards } from "./chaos/workload";
import { WorkloadPhase } from "./chaos/workload-phase";

const FAULT_FREE_LIMIT_MS = 15 * 60_000;
/** After the last job is final: time for sandbox cleanups and closes to land before the audit. */
const IDLE_SETTLE_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function positive(flag: string, text: string | undefined): number {
  const value = Number(text);
  if (!(value > 0)) throw new Error(`--${flag}: expected a positive number, got "${text}"`);
  return value;
}

function faultList(text: string): FaultKind[] {
  const kinds = text.split(",").map((kind) => kind.trim());
  for (const kind of kinds)
    if (!(FAULT_KINDS as readonly string[]).includes(kind))
      throw new Error(`--faults: unknown fault "${kind}"; known: ${FAULT_KINDS.join(", ")}`);
  return kinds as FaultKind[];
}

/** `time` of every error (50) or fatal (60) JSON log line in the processes' output. */
function errorLogTimes(outputs: readonly string[]): number[] {
  const times: number[] = [];
  for (const output of outputs)
    for (const line of output.split("\n")) {
      if (!/"level":(50|60)\b/.test(line)) continue;
      const time = /"time":"([^"]+)"/.exec(line)?.[1];
      times.push(time ? Date.parse(time) : Date.now());
    }
  return times;
}

/** The last lines of an exit's output, each cut short: enough to name the cause on the console. */
function lastWords(tail: string): string {
  return tail
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(-3)
    .map((line) => `    | ${line.length > 240 ? `${line.slice(0, 240)}…` : line}`)
    .join("\n");
}

const bench: Bench = {
  name: "chaos",
  description:
    "distributed deployment (API-only server, 2 workers, own PostgreSQL + Redis, bubblewrap sandboxes, simulator) running math/code/sleep jobs fault-free, then under seeded faults: lost, duplicated, leaked, stale, stuck, recovery and throughput against fault-free",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        quick: { type: "boolean", default: false },
        seed: { type: "string", default: "31" },
        jobs: { type: "string" },
        outstanding: { type: "string", default: "24" },
        faults: { type: "string" },
        pools: { type: "string", default: "init=4,run=8,eval=4" },
        "settle-s": { type: "string" },
        "disk-mib": { type: "string", default: "512" },
      },
    });
    const quick = values.quick ?? false;
    const seed = positive("seed", values.seed);
    const jobs = positive("jobs", values.jobs ?? (quick ? "150" : "300"));
    const outstanding = positive("outstanding", values.outstanding);
    const faults = values.faults ? faultList(values.faults) : quick ? [...QUICK_FAULTS] : [...FAULT_KINDS];
    const settleMs = positive("settle-s", values["settle-s"] ?? (quick ? "120" : "180")) * 1_000;
    const durations = { inferenceOutageMs: quick ? 10_000 : 20_000, diskFullMs: quick ? 15_000 : 30_000 };
    const order = shuffleFaults(faults, seed);
    const items = buildWorkload(jobs, seed);
    const log = (line: string) => console.log(line);
    log(`  fault order (seed ${seed}): ${order.join(", ")}`);

    const cluster = await ChaosCluster.start({
      workers: 2,
      pools: values.pools ?? "init=4,run=8,eval=4",
      diskMiB: positive("disk-mib", values["disk-mib"]),
      inferenceOverheadMs: 300,
      stopGraceMs: 20_000,
      seed,
    });
    try {
      const { api, store } = cluster;
      log(`  fault-free phase: ${jobs} jobs, ${outstanding} in flight`);
      const faultFreePhase = new WorkloadPhase({
        name: "fault-free",
        items,
        keyPrefix: "ff",
        outstanding,
        api,
        store,
      });
      faultFreePhase.setDeadline(Date.now() + FAULT_FREE_LIMIT_MS);
      const faultFree = await faultFreePhase.run();
      const baselinePerSec = phaseRate(faultFree);
      log(
        `    ${baselinePerSec.toFixed(2)} jobs/s in ${((faultFree.endedAtMs - faultFree.startedAtMs) / 1_000).toFixed(0)} s`,
      );
      const completedFree = faultFree.jobs.filter((job) => job.status === "completed");
      const turns = await store.turnCounts(completedFree.map((job) => job.id));
      const faultFreeTurns = new Map<string, number>();
      for (const job of completedFree)
        if (job.taskId)
          faultFreeTurns.set(
            job.taskId,
            Math.max(faultFreeTurns.get(job.taskId) ?? 0, turns.get(job.id) ?? 0),
          );

      log(`  chaos phase: the same ${jobs} jobs (again, until the last fault ends), ${order.length} faults`);
      const recovery = { ...DEFAULT_RECOVERY, baselinePerSec };
      let isInjecting = true;
      const chaosPhase = new WorkloadPhase({
        name: "chaos",
        items,
        keyPrefix: "chaos",
        outstanding,
        api,
        store,
        // A fast cluster would finish the items before the later faults: they would hit it idle.
        continueWhile: () => isInjecting,
      });
      const running = chaosPhase.run();
      const records = await driveFaults(
        order,
        {
          deployment: cluster.deployment,
          supervisor: cluster.supervisor,
          simulator: cluster.simulator,
          disks: cluster.disks,
          random: seededRandom(seed + 1),
          durations,
        },
        chaosPhase,
        { warmupMs: 15_000, minGapMs: 8_000, maxRecoveryWaitMs: 45_000, recovery, log },
      );
      isInjecting = false;
      const lastFaultEnd = Math.max(...records.map((record) => record.endedAtMs));
      chaosPhase.setDeadline(lastFaultEnd + settleMs);
      log(`  faults done; every job must be final within ${settleMs / 1_000} s`);
      const chaos = await running;

      await sleep(IDLE_SETTLE_MS);
      await cluster.serverReady();
      const audit = await auditChaos({
        chaos,
        faultFreeTurns,
        expectedRewards: expectedRewards(),
        store,
        ledger: cluster.deployment.ledger,
        api,
        isHostAlive: (hostId) => cluster.isHostAlive(hostId),
        lives: cluster.supervisor.lives,
        disksRoot: cluster.disks.root,
        baseDirs: cluster.disks.baseDirs(),
      });
      const exits = [...cluster.supervisor.exits];
      for (const exit of exits.filter((e) => !e.expected))
        log(
          `  unexpected exit: ${exit.name} pid ${exit.pid} code ${exit.code}, last words:\n${lastWords(exit.tail)}`,
        );
      const report = buildReport({
        faultFree,
        chaos,
        faults: records,
        audit,
        exits,
        errorLogTimesMs: errorLogTimes(cluster.supervisor.outputs()),
        recovery,
      });
      const sample = <T>(list: readonly T[]) => list.slice(0, 20);
      return {
        bench: "chaos",
        description: bench.description,
        rows: report.rows,
        summary: report.summary,
        config: {
          seed,
          jobs,
          outstanding,
          order,
          pools: values.pools,
          durations,
          settleMs,
          recovery,
          faults: records,
          exits: exits.map((exit) => ({ ...exit, tail: exit.expected ? "" : exit.tail })),
          findings: {
            missing: sample(audit.missing),
            stuck: sample(audit.stuck),
            unfinished: sample(audit.unfinished),
            duplicated: sample(audit.duplicated),
            failedInfra: sample(audit.failedInfra),
            rewardMismatches: sample(audit.rewardMismatches),
            staleSandboxRecords: sample(audit.staleSandboxRecords),
            staleApiAnswers: sample(audit.staleApiAnswers),
            leakedSandboxes: sample(audit.leakedSandboxes),
          },
        },
      };
    } finally {
      await cluster.dispose();
    }
  },
};

export default bench;
