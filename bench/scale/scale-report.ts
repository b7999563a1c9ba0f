// Rows and summary of the simulated scaling table, beside ProRL Agent's published 1 → 8 nodes.
import type { BenchRow } from "../bench.types";
import { targetOf } from "../targets/bench-targets";
import { meetsTarget } from "../targets/target-verdict";
import { PRORL_SCALING } from "./profile";
import type { TScaleSimConfig, TScaleSimResult } from "./scale-sim.types";

/** Efficiency below this counts as saturated. */
const SATURATED_BELOW = 0.9;

export function simRow(result: TScaleSimResult, oneNodeJobsPerSec: number): BenchRow {
  const speedup = result.jobsPerSec / oneNodeJobsPerSec;
  return {
    name: `simulated, ${result.nodes} node${result.nodes === 1 ? "" : "s"}`,
    nodes: result.nodes,
    jobsPerSec: result.jobsPerSec,
    speedup,
    efficiency: speedup / result.nodes,
    initWaitS: result.meanInitWaitMs / 1_000,
    runEvalWaitS: result.meanRunEvalWaitMs / 1_000,
    storeOpsPerSec: Math.round(result.storeOpsPerSec),
    storeWritesPerJob: Number(result.storeWritesPerJob.toFixed(1)),
    storeBusy: Number(result.storeUtilisation.toFixed(3)),
    redisOpsPerSec: Math.round(result.redisOpsPerSec),
    redisBusy: Number(result.redisUtilisation.toFixed(3)),
  };
}

export function prorlRows(): BenchRow[] {
  return Object.entries(PRORL_SCALING).map(([model, figures]) => {
    const speedup = figures.eightNodes / figures.oneNode;
    return {
      name: `ProRL Agent published (${model.replace("_", "-")}), 8 nodes`,
      nodes: 8,
      jobsPerSec: figures.eightNodes,
      speedup,
      efficiency: speedup / 8,
    };
  });
}

/** Headline figures: efficiency at 8 and 64 nodes, where each central service would saturate. */
export function scaleSummary(
  results: readonly TScaleSimResult[],
  simRows: readonly BenchRow[],
  config: Pick<TScaleSimConfig, "store" | "redis">,
): Record<string, string | number | boolean> {
  const efficiency = (row: BenchRow | undefined) => row?.efficiency as number | undefined;
  const at = (nodes: number) => efficiency(simRows.find((row) => row.nodes === nodes));
  const round = (value: number | undefined) => (value === undefined ? "not run" : Number(value.toFixed(3)));
  const e64 = at(64);
  // Extrapolated from the largest row still scaling: the node count at which the store's writes
  // (Redis's ops) per node times nodes reach the service's capacity.
  const scaling = results.filter((_, i) => (efficiency(simRows[i]) ?? 0) >= SATURATED_BELOW);
  const reference = scaling.at(-1);
  const saturatesAt = (capacityPerSec: number, usedPerSec: number | undefined) =>
    Number.isFinite(capacityPerSec) && reference !== undefined && usedPerSec
      ? Math.round((capacityPerSec * reference.nodes) / usedPerSec)
      : "never";
  const saturated = simRows.find((row) => (efficiency(row) ?? 1) < SATURATED_BELOW);
  return {
    simulatedEfficiency8: round(at(8)),
    simulatedEfficiency64: round(e64),
    "simulated efficiency 64 >= 0.9":
      e64 !== undefined && meetsTarget(targetOf("scale-sim", "simulatedEfficiency64"), e64),
    samplingNoise: "about +-1% per row (log-normal stage times, 20,000 jobs a row by default)",
    prorlSpeedup8: "4.7-5.0x (0.35->1.65, 0.25->1.26 inst/s)",
    prorlEfficiency8: "0.59-0.63",
    storeSaturatesAtNodes: saturatesAt(config.store.opsPerSec, reference?.storeWritesPerSec),
    redisSaturatesAtNodes: saturatesAt(config.redis.opsPerSec, reference?.redisOpsPerSec),
    firstSaturatedRow: saturated
      ? `${saturated.nodes} nodes: efficiency ${round(efficiency(saturated))}, store busy ${saturated.storeBusy}, redis busy ${saturated.redisBusy}`
      : "none in the rows run",
  };
}
