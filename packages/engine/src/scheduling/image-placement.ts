/** Default of `placementMaxWaitMs`: how long an item waits for a worker that holds its image. */
export const DEFAULT_PLACEMENT_MAX_WAIT_MS = 3_000;

/** What image-aware placement looks at of one waiting item. */
export interface PlacementCandidate {
  /** `QueueItem.image`. */
  image?: string | null;
  /** When it was first queued, in ms of the queue's clock. */
  enqueuedAtMs: number;
}

/**
 * Whether a worker holding `held` should take `candidate` now even though a better-ranked item
 * of another image waits: it needs no image, the worker holds its image, or it has waited
 * `maxWaitMs` already (then whoever asks takes it: no item starves for want of a worker with its
 * image). When no waiting item passes, the worker takes the best one anyway.
 */
export function isPlacedWell(
  candidate: PlacementCandidate,
  held: ReadonlySet<string>,
  nowMs: number,
  maxWaitMs: number,
): boolean {
  const { image } = candidate;
  if (image === undefined || image === null || held.has(image)) return true;
  return nowMs - candidate.enqueuedAtMs >= maxWaitMs;
}

/**
 * The item a worker holding `held` takes from `ranked` (best first): the first placed well,
 * else the first. Undefined when `ranked` is empty.
 */
export function choosePlaced<T extends PlacementCandidate>(
  ranked: readonly T[],
  held: ReadonlySet<string>,
  nowMs: number,
  maxWaitMs: number,
): T | undefined {
  return ranked.find((candidate) => isPlacedWell(candidate, held, nowMs, maxWaitMs)) ?? ranked[0];
}
