import type { TTokenStreamView } from "./trajectory-types";

/** The export's `versions` value of a sampled token whose weight version is not an integer (and off the sampled tokens). */
const NO_INTEGER_VERSION = -1;

/** How many sampled tokens one integer weight version generated. */
export interface TVersionCount {
  version: number;
  tokens: number;
}

/** Marker styles the token view cycles through to tell versions apart. */
const VERSION_TONES = 4;

/**
 * The integer weight versions of the sampled tokens (the export's `versions`, AReaL's), with how
 * many tokens each generated, ascending; -1 (a null or free-form weight version) first when present.
 */
export function versionCounts(exported: Pick<TTokenStreamView, "lossMask" | "versions">): TVersionCount[] {
  const counts = new Map<number, number>();
  exported.lossMask.forEach((mask, position) => {
    const version = exported.versions?.[position];
    if (mask !== 1 || version === undefined) return;
    counts.set(version, (counts.get(version) ?? 0) + 1);
  });
  return [...counts.entries()]
    .map(([version, tokens]) => ({ version, tokens }))
    .sort((a, b) => a.version - b.version);
}

/** The integer weight version of the sampled token at `position`; null off the sampled tokens or without `versions`. */
export function versionAt(
  exported: Pick<TTokenStreamView, "lossMask" | "versions">,
  position: number,
): number | null {
  if (exported.lossMask[position] !== 1) return null;
  return exported.versions?.[position] ?? null;
}

/** A version as the view says it: its number, or that it has none. */
export function versionLabel(version: number): string {
  return version === NO_INTEGER_VERSION ? "none (-1)" : String(version);
}

/**
 * Which of the cycled marker styles a version gets, by its place among the trajectory's versions;
 * null when the trajectory has a single version (nothing to tell apart).
 */
export function versionTone(version: number | null, counts: readonly TVersionCount[]): number | null {
  if (version === null || counts.length < 2) return null;
  const index = counts.findIndex((count) => count.version === version);
  return index === -1 ? null : index % VERSION_TONES;
}
