import styles from "./token-view.module.css";
import type { TTokenStreamView } from "./trajectory-types";
import { type TVersionCount, versionCounts, versionLabel, versionTone } from "./weight-versions";

/** The marker style of each cycled version tone (see `versionTone`). */
const VERSION_TONE_CLASSES = [styles.version0, styles.version1, styles.version2, styles.version3];

/** The underline of a token's weight version; undefined when there is nothing to tell apart. */
export function versionMarkerClass(
  version: number | null,
  counts: readonly TVersionCount[],
): string | undefined {
  const tone = versionTone(version, counts);
  return tone === null ? undefined : VERSION_TONE_CLASSES[tone];
}

/**
 * The key of the weight-version markers, drawn when the trajectory's sampled tokens come from more
 * than one integer weight version (the export's `versions`): each version, its marker and how many
 * sampled tokens it generated.
 */
export function WeightVersionLegend({
  exported,
}: {
  exported: Pick<TTokenStreamView, "lossMask" | "versions">;
}) {
  const counts = versionCounts(exported);
  if (counts.length < 2) return null;
  return (
    <ul className={styles.legend} aria-label="Weight versions" data-testid="version-legend">
      {counts.map((count) => (
        <li key={count.version} data-testid="version-legend-item" data-version={count.version}>
          <span
            className={`${styles.token} ${styles.none} ${versionMarkerClass(count.version, counts) ?? ""}`}
          >
            id
          </span>
          version {versionLabel(count.version)}: {count.tokens} sampled tokens
        </li>
      ))}
    </ul>
  );
}
