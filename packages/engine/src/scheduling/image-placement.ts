/**
 * Default of `placementMaxWaitMs`: how long an item waits for a worker that holds its image, in
 * ms. About one unpack of a small image (a SWE image's takes minutes): with a few seconds, every
 * item of a batch is past the bound before the first unpacks end and placement is first-come
 * again. A worker that holds none of the waiting items' images still takes the best one at once.
 */
export const DEFAULT_PLACEMENT_MAX_WAIT_MS = 30_000;

/** What image-aware placement looks at of one waiting item. */
interface PlacementCandidate {
  /** `QueueItem.image`. */
  image?: string | null;
  /** When it was first queued, in ms of the queue's clock. */
  enqueuedAtMs: number;
}

/**
 * Whether a worker holding `held` should take `candidate` now even though a better-ranked item
 * of another image waits: it needs no image, the worker holds its image, or it has waited
 * `maxWaitMs` already (then whoever asks takes it: no item starves for want of a worker with its
 * image). The queues hand out the best-ranked item placed well for
 * the worker, else (nothing it holds waits) the best-ranked item.
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
