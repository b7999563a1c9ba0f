import type { TCurriculumSnapshot } from "@raas/shared";

/** The task counts of a snapshot, in stacking order, with their legend names. */
export const CURRICULUM_TASK_PARTS = [
  { key: "active", label: "active" },
  { key: "retired", label: "retired (solved N in a row)" },
  { key: "unexplored", label: "not tried yet" },
] as const satisfies ReadonlyArray<{ key: keyof TCurriculumSnapshot; label: string }>;

/** One stacked bar per closed step: its source's tasks active, retired and not tried yet. */
export function curriculumTaskRows(snapshots: readonly TCurriculumSnapshot[]): Array<Record<string, number>> {
  return snapshots.map((s) => ({
    step: s.stepIndex,
    active: s.active,
    retired: s.retired,
    unexplored: s.unexplored,
  }));
}

/** The histogram's bins as stack parts (`bin0` …), labelled by their pass-rate ranges. */
export function passRateParts(binEdges: readonly number[]): { key: string; label: string }[] {
  return binEdges.slice(0, -1).map((low, i) => ({
    key: `bin${i}`,
    label: `${Math.round(low * 100)}–${Math.round((binEdges[i + 1] ?? 1) * 100)} %`,
  }));
}

/** One stacked bar per closed step: tried tasks per pass-rate bin (the histogram over time). */
export function passRateRows(snapshots: readonly TCurriculumSnapshot[]): Array<Record<string, number>> {
  return snapshots.map((s) => {
    const row: Record<string, number> = { step: s.stepIndex };
    s.histogram.forEach((count, i) => {
      row[`bin${i}`] = count;
    });
    return row;
  });
}
