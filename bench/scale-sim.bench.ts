// `npm run bench -- scale-sim`: the distributed scheduler as a discrete-event simulation (bench/scale/)
// from 1 to 64 nodes, then past it to find where the shared store and queue saturate.
import { parseArgs } from "node:util";
import type { Bench, BenchRow } from "./bench.types";
import {
  DEFAULT_JOBS_PER_ROW,
  DEFAULT_PROBE_NODES,
  DEFAULT_SIM_NODES,
  defaultScaleSimConfig,
} from "./scale/scale-defaults";
import { prorlRows, scaleSummary, simRow } from "./scale/scale-report";
import { simulateScheduler } from "./scale/scheduler-sim";

/** A positive number from a flag, or a usage error naming it. */
function positive(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = text === "inf" ? Number.POSITIVE_INFINITY : Number(text);
  if (!(value > 0)) throw new Error(`--${flag}: expected a positive number (or inf), got "${text}"`);
  return value;
}

function nodeList(text: string | undefined): number[] {
  if (text === undefined) return [...DEFAULT_SIM_NODES, ...DEFAULT_PROBE_NODES];
  const nodes = text.split(",").map(Number);
  if (!nodes.every((n) => Number.isInteger(n) && n > 0) || !nodes.includes(1))
    throw new Error(
      `--nodes: expected whole numbers including 1 (the baseline), e.g. 1,2,4,8; got "${text}"`,
    );
  return [...new Set(nodes)].sort((a, b) => a - b);
}

const bench: Bench = {
  name: "scale-sim",
  description:
    "discrete-event simulation of the distributed scheduler (per-node INIT/RUN/EVAL pools, shared and addressed queues with leases, heartbeats, a rate-limited store and Redis) on ProRL Agent's SWE stage profile; throughput and efficiency from 1 to 64 nodes and past",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        nodes: { type: "string" },
        "jobs-per-row": { type: "string" },
        "store-writes-per-sec": { type: "string" },
        "redis-ops-per-sec": { type: "string" },
        "no-affinity": { type: "boolean", default: false },
        seed: { type: "string" },
        "batch-jobs": { type: "string" },
      },
    });
    const nodes = nodeList(values.nodes);
    const jobsPerRow = positive("jobs-per-row", values["jobs-per-row"], DEFAULT_JOBS_PER_ROW);
    const base = defaultScaleSimConfig(1);
    const overrides = {
      store: {
        ...base.store,
        opsPerSec: positive("store-writes-per-sec", values["store-writes-per-sec"], base.store.opsPerSec),
      },
      redis: {
        ...base.redis,
        opsPerSec: positive("redis-ops-per-sec", values["redis-ops-per-sec"], base.redis.opsPerSec),
      },
      affinity: !values["no-affinity"],
      seed: positive("seed", values.seed, base.seed),
      batchJobs: values["batch-jobs"] === undefined ? 0 : positive("batch-jobs", values["batch-jobs"], 0),
    };
    const results = nodes.map((n) => {
      const started = performance.now();
      // The baseline measures four times as many jobs: every efficiency divides by it.
      const jobs = n === 1 ? 4 * jobsPerRow : jobsPerRow;
      const result = simulateScheduler(defaultScaleSimConfig(n, overrides, jobs));
      console.log(
        `  ${n} nodes: ${result.events} events in ${((performance.now() - started) / 1_000).toFixed(1)} s`,
      );
      return result;
    });
    const oneNode = results[0]?.jobsPerSec ?? Number.NaN;
    const simRows: BenchRow[] = results.map((result) => simRow(result, oneNode));
    const config = defaultScaleSimConfig(1, overrides, jobsPerRow);
    const { nodes: _baseline, windowMs: oneNodeWindowMs, ...shared } = config;
    return {
      bench: "scale-sim",
      description: bench.description,
      rows: [...simRows, ...prorlRows()],
      summary: scaleSummary(results, simRows, config),
      config: { ...shared, nodes, jobsPerRow, oneNodeWindowMs },
    };
  },
};

export default bench;
