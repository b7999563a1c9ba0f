import { Badge, type TBadgeTone } from "@raas/ui/badge";
import type { TStepView } from "./run-types";

const TONES: Record<TStepView["status"], TBadgeTone> = {
  running: "info",
  completed: "ok",
  exhausted: "warn",
  cancelled: "muted",
  failed: "bad",
};

/** A step's status as a badge. */
export function StepStatusBadge({ status, testId }: { status: TStepView["status"]; testId?: string }) {
  return (
    <Badge tone={TONES[status]} testId={testId}>
      {status}
    </Badge>
  );
}
