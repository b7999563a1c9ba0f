/** `1234` → `1.23 s`, `65_000` → `1 min 5 s`; null → an em dash. */
export function formatDurationMs(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(2)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1_000);
  return `${minutes} min ${seconds} s`;
}

/** A local date-time for a millisecond timestamp; null → an em dash. */
export function formatTimestamp(ms: number | null): string {
  if (ms === null) return "—";
  return new Date(ms).toLocaleString(undefined, { hour12: false });
}

/** `3.14159` → `3.14`; null → an em dash. */
export function formatNumber(value: number | null, digits = 2): string {
  if (value === null) return "—";
  return String(Number(value.toFixed(digits)));
}

/** A turn's prompt-cache count: `1152 cached`; null (the backend did not say) → `unknown cached`, never 0. */
export function formatCachedTokens(cachedPromptTokens: number | null): string {
  return cachedPromptTokens === null ? "unknown cached" : `${cachedPromptTokens} cached`;
}

/** `268435456` → `256 MiB`; null → `unbounded` (a limit that is not set). */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "unbounded";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1_024 && unit < units.length - 1) {
    value /= 1_024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

/** `0.4567` → `45.7 %`; null → an em dash. */
export function formatPercent(fraction: number | null): string {
  return fraction === null ? "—" : `${Number((fraction * 100).toFixed(1))} %`;
}
