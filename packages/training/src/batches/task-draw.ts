import { seededRandom, type TStepTask } from "@raas/shared";

/** A seeded permutation of 0..n-1 (Fisher–Yates over a mulberry32 stream); pure. */
export function seededOrder(length: number, seed: number): number[] {
  const order = Array.from({ length }, (_, i) => i);
  const next = seededRandom(seed);
  for (let i = length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/**
 * The task at `position` of a source: inline sources end after their last task (null); dataset
 * sources cycle in epochs, each epoch in its own seeded order when a seed is given.
 */
export function taskAt(
  tasks: readonly TStepTask[],
  position: number,
  options: { cycle: boolean; shuffleSeed: number | undefined },
): TStepTask | null {
  if (tasks.length === 0) return null;
  if (!options.cycle && position >= tasks.length) return null;
  const epoch = Math.floor(position / tasks.length);
  const offset = position % tasks.length;
  const index =
    options.shuffleSeed === undefined
      ? offset
      : (seededOrder(tasks.length, options.shuffleSeed + epoch)[offset] as number);
  return tasks[index] ?? null;
}
