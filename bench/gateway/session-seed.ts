/**
 * The sampling seed of the bench's session with task index `index`, in every arm: the simulator
 * samples afresh without a seed (as a real engine does), and the arms must generate the same
 * answers for their timings to compare. Never negative (warm-up sessions have negative indices).
 */
export function sessionSeed(index: number): number {
  return 1_000_000 + index;
}
