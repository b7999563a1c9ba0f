import { Badge } from "@raas/ui/badge";
import type { TWorkerView } from "../../trpc/router-types";

/**
 * Whether a worker takes work of its own accord: `healthy`, or `unhealthy` with the reason it
 * reported (its sandboxes fail to start). An unhealthy worker still heartbeats and finishes the
 * jobs it holds, but starts no new one.
 */
export function WorkerHealthCell({ worker }: { worker: TWorkerView }) {
  if (worker.isHealthy) {
    return (
      <Badge tone="ok" testId={`worker-health-${worker.id}`}>
        healthy
      </Badge>
    );
  }
  const reason = worker.unhealthyReason ?? "no reason given";
  return (
    <span>
      <Badge tone="bad" testId={`worker-health-${worker.id}`} title={reason}>
        unhealthy
      </Badge>{" "}
      <span className="muted" data-testid={`worker-health-reason-${worker.id}`}>
        {reason}
      </span>
    </span>
  );
}
