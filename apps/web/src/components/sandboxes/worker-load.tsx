import { Badge, type TBadgeTone } from "@raas/ui/badge";
import { DataTable } from "@raas/ui/data-table";
import { EmptyState } from "@raas/ui/empty-state";
import { Section } from "@raas/ui/section";
import { STAGES } from "../../lib/domain";
import { formatDurationMs } from "../../lib/format";
import type { TWorkerView } from "../../trpc/router-types";

const STATUS_TONES: Record<TWorkerView["status"], TBadgeTone> = {
  active: "ok",
  draining: "warn",
  stopped: "muted",
  lost: "bad",
};

/**
 * Sandbox load per worker: live sandboxes at its last heartbeat, sandboxes it created in the
 * window (`seen`, from the summary of its host), and how full its stage pools are.
 */
export function WorkerLoad({
  workers,
  seenByWorker,
  onPickWorker,
}: {
  workers: readonly TWorkerView[];
  seenByWorker: ReadonlyMap<string, number | undefined>;
  onPickWorker: (id: string) => void;
}) {
  return (
    <Section
      id="worker-load"
      title="Sandbox load per worker"
      description="Live sandboxes as each worker's last heartbeat reported them; “seen in window” counts the sandboxes it created (refreshed every 10 s). Pick a worker to filter the page to its sandboxes."
    >
      {workers.length === 0 ? (
        <EmptyState title="No worker is registered.">
          <p>
            The server registers itself as a worker when it runs stage pools; start one with `npm run raas --
            worker`.
          </p>
        </EmptyState>
      ) : (
        <DataTable
          caption="Sandbox load per worker"
          columns={[
            {
              key: "worker",
              header: "worker",
              cell: (worker) => (
                <button
                  type="button"
                  className="link-button mono"
                  onClick={() => onPickWorker(worker.id)}
                  aria-label={`Show only the sandboxes of worker ${worker.id}`}
                >
                  {worker.id}
                </button>
              ),
            },
            {
              key: "status",
              header: "status",
              cell: (worker) => <Badge tone={STATUS_TONES[worker.status]}>{worker.status}</Badge>,
            },
            {
              key: "live",
              header: "live sandboxes",
              isNumeric: true,
              cell: (worker) => worker.sandboxes,
              cellTestId: (worker) => `worker-live-${worker.id}`,
            },
            {
              key: "seen",
              header: "seen in window",
              isNumeric: true,
              cell: (worker) => seenByWorker.get(worker.id) ?? "…",
              cellTestId: (worker) => `worker-seen-${worker.id}`,
            },
            ...STAGES.map((stage) => ({
              key: stage,
              header: `${stage.toUpperCase()} active / slots`,
              isNumeric: true,
              cell: (worker: TWorkerView) => {
                const pool = worker.pools[stage];
                return pool ? `${pool.active} / ${pool.concurrency}` : "—";
              },
            })),
            {
              key: "heartbeat",
              header: "heartbeat age",
              isNumeric: true,
              cell: (worker) => formatDurationMs(worker.heartbeatAgeMs),
            },
          ]}
          rows={workers}
          rowKey={(worker) => worker.id}
          testId="worker-load-table"
        />
      )}
    </Section>
  );
}
