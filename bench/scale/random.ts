import { seededRandom } from "@raas/shared";

/** A seeded uniform generator on [0, 1) (mulberry32): the same seed gives the same run. */
export const createRandom: (seed: number) => () => number = seededRandom;

/** A log-normal duration: `medianMs` × e^(σ·Z), Z standard normal (Box–Muller). σ = 0 is fixed. */
export function sampleLogNormalMs(random: () => number, medianMs: number, sigma: number): number {
  if (sigma === 0) return medianMs;
  const u = 1 - random();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return medianMs * Math.exp(sigma * z);
}

/** Mean of that log-normal distribution: median × e^(σ²/2). */
export function logNormalMeanMs(medianMs: number, sigma: number): number {
  return medianMs * Math.exp((sigma * sigma) / 2);
}
