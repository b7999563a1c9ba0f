import { Badge, type TBadgeTone } from "@raas/ui/badge";
import { DataTable } from "@raas/ui/data-table";
import { EmptyState } from "@raas/ui/empty-state";
import { Section } from "@raas/ui/section";
import { workerOccupancy } from "../../lib/charts/overview-workers";
import { STAGES } from "../../lib/domain";
import { formatDurationMs, formatPercent } from "../../lib/format";
import type { TWorkerView } from "../../trpc/router-types";
import styles from "./overview.module.css";
import { WorkerHealthCell } from "./worker-health-cell";

const STATUS_TONES: Record<TWorkerView["status"], TBadgeTone> = {
  active: "ok",
  draining: "warn",
  stopped: "muted",
  lost: "bad",
};

/** Every worker process: how full its stage pools are, its live sandboxes and heartbeat, and whether it drains. */
export function WorkersSection({ workers }: { workers: readonly TWorkerView[] }) {
  return (
    <Section
      id="workers"
      title="Workers"
      description="Occupancy is the jobs each worker was running over the slots of its stage pools at its last heartbeat. A draining worker finishes its jobs and takes no new ones; so does an unhealthy one (its sandboxes fail to start; it says why); a lost one stopped heartbeating and its jobs went elsewhere."
      testId="workers-section"
    >
      {workers.length === 0 ? (
        <EmptyState title="No worker is registered.">
          <p>
            The server registers itself when it runs stage pools; on other nodes start workers with{" "}
            <code>npm run raas -- worker</code>.
          </p>
        </EmptyState>
      ) : (
        <DataTable
          caption="Workers and their pool occupancy"
          columns={[
            {
              key: "worker",
              header: "worker",
              cell: (worker) => <span className="mono">{worker.id}</span>,
              cellTestId: (worker) => `worker-id-${worker.id}`,
            },
            {
              key: "status",
              header: "status",
              cell: (worker) => (
                <Badge tone={STATUS_TONES[worker.status]} testId={`worker-status-${worker.id}`}>
                  {worker.status}
                </Badge>
              ),
            },
            {
              key: "health",
              header: "health",
              cell: (worker) => <WorkerHealthCell worker={worker} />,
            },
            {
              key: "occupancy",
              header: "occupancy",
              cell: (worker) => <OccupancyCell worker={worker} />,
              cellTestId: (worker) => `worker-occupancy-${worker.id}`,
            },
            ...STAGES.map((stage) => ({
              key: stage,
              header: `${stage.toUpperCase()} active / slots`,
              isNumeric: true,
              cell: (worker: TWorkerView) => {
                const pool = worker.pools[stage];
                return pool ? `${pool.active} / ${pool.concurrency}` : "—";
              },
              cellTestId: (worker: TWorkerView) => `worker-${stage}-${worker.id}`,
            })),
            {
              key: "sandboxes",
              header: "live sandboxes",
              isNumeric: true,
              cell: (worker) => worker.sandboxes,
              cellTestId: (worker) => `worker-sandboxes-${worker.id}`,
            },
            {
              key: "heartbeat",
              header: "heartbeat age",
              isNumeric: true,
              cell: (worker) => formatDurationMs(worker.heartbeatAgeMs),
            },
          ]}
          rows={workers}
          rowKey={(worker) => worker.id}
          rowTestId={(worker) => `worker-row-${worker.id}`}
          testId="workers-table"
        />
      )}
    </Section>
  );
}

function OccupancyCell({ worker }: { worker: TWorkerView }) {
  const { active, slots, fraction } = workerOccupancy(worker);
  if (fraction === null) return <span className="muted">no pool running</span>;
  return (
    <span className={styles.occupancy}>
      <meter
        className={styles.meter}
        min={0}
        max={slots}
        value={active}
        aria-label={`${worker.id}: ${active} of ${slots} slots in use`}
      />
      <span>
        {active} / {slots} ({formatPercent(fraction)})
      </span>
    </span>
  );
}
