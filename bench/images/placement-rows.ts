// The placement part of the images bench: the same batch with placement off, then on; its rows
// and summary figures (`placementSpeedup`: mean time-to-first-RUN off over on).

import type { BenchReport, BenchRow } from "../bench.types";
import { mean, median, percentile } from "../stats";
import { targetOf } from "../targets/bench-targets";
import { meetsTarget } from "../targets/target-verdict";
import { runPlacementBatch } from "./placement-batch";

export interface PlacementMeasureOptions {
  bwrapPath: string;
  dir: string;
  /** Distinct images (variant i holds marker i). */
  variants: readonly string[];
  jobs: number;
  workers: number;
  slotsPerWorker: number;
  placementMaxWaitMs: number;
}

const round = (value: number) => Math.round(value);

/** Each image `jobs / images` times, shuffled by a fixed seed (the same batch every run). */
function shuffledJobs(jobs: number, images: number): number[] {
  const order = Array.from({ length: jobs }, (_, index) => index % images);
  let seed = 36;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (let index = order.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other] as number, order[index] as number];
  }
  return order;
}

export async function measurePlacement(
  options: PlacementMeasureOptions,
): Promise<{ rows: BenchRow[]; summary: BenchReport["summary"] }> {
  const jobImages = shuffledJobs(options.jobs, options.variants.length);
  const rows: BenchRow[] = [];
  const means = new Map<string, number>();
  for (const isPlacementOn of [false, true]) {
    const name = isPlacementOn ? "on" : "off";
    const result = await runPlacementBatch({
      ...options,
      dir: `${options.dir}-${name}`,
      images: options.variants,
      jobImages,
      isPlacementOn,
    });
    const ms = result.firstRunMs;
    means.set(name, mean(ms));
    rows.push({
      name: `first RUN, ${options.jobs} jobs over ${options.variants.length} images: placement ${name}`,
      n: ms.length,
      mean_ms: round(mean(ms)),
      p50_ms: round(median(ms)),
      p95_ms: round(percentile(ms, 95)),
      last_ms: round(Math.max(...ms)),
      unpacks: result.unpacks,
      on_holder: result.placedOnHolder,
    });
  }
  const speedup = (means.get("off") ?? 0) / (means.get("on") ?? 1);
  return {
    rows,
    summary: {
      placementSpeedup: Math.round(speedup * 100) / 100,
      placementSpeedupMet: meetsTarget(targetOf("images", "placementSpeedup"), speedup),
    },
  };
}
