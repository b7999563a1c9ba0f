/** A seeded uniform generator on [0, 1) (mulberry32): the same seed gives the same run. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

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
