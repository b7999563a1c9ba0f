/** Line and bar colours, distinguishable on the dark panel; series beyond the list cycle. */
const SERIES_COLORS = [
  "#60a5fa",
  "#4ade80",
  "#fbbf24",
  "#f472b6",
  "#a78bfa",
  "#34d399",
  "#fb923c",
  "#22d3ee",
] as const;

/** The colour of the `index`-th series. */
export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
}

/** Axis, grid and tooltip colours matching the app's theme variables. */
export const CHART_THEME = {
  axis: "#8b95a7",
  grid: "#2a3140",
  tooltipBackground: "#151a23",
  tooltipBorder: "1px solid #2a3140",
} as const;
