import { z } from "zod";

/** The three stages every job passes through, in order. */
export const STAGES = ["init", "run", "eval"] as const;
export const ZStage = z.enum(STAGES).meta({
  id: "Stage",
  description: "A lifecycle stage: init (sandbox up, task materialized), run (agent loop), eval (reward).",
});
export type TStage = z.infer<typeof ZStage>;

/** The stage after `stage`, or null when `stage` is the last one. */
export function nextStage(stage: TStage): TStage | null {
  const index = STAGES.indexOf(stage);
  return STAGES[index + 1] ?? null;
}
