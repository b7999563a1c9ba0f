import { Badge, type TBadgeTone } from "@raas/ui/badge";
import { DataTable, type TDataColumn } from "@raas/ui/data-table";
import { formatDurationMs, formatNumber, formatPercent } from "../../lib/format";
import type { TBackendView } from "../../trpc/router-types";
import { BackendActions } from "./backend-actions";

const LIFECYCLE_TONES: Record<TBackendView["lifecycle"], TBadgeTone> = {
  active: "ok",
  draining: "warn",
  drained: "muted",
};
const CIRCUIT_TONES: Record<TBackendView["circuit"], TBadgeTone> = {
  closed: "ok",
  "half-open": "warn",
  open: "bad",
};

function health(backend: TBackendView): { tone: TBadgeTone; label: string } {
  if (!backend.lastHealthCheck) return { tone: "muted", label: "not checked yet" };
  return backend.lastHealthCheck.isHealthy
    ? { tone: "ok", label: "healthy" }
    : { tone: "bad", label: "unhealthy" };
}

/** Distributed mode: how many workers route to it, each one's own state on hover. */
function workersCell(backend: TBackendView): { label: string; title: string } {
  const workers = backend.workers ?? [];
  if (workers.length === 0) return { label: "—", title: "only this server routes to it" };
  const title = workers
    .map(
      (worker) =>
        `${worker.workerId}: ${worker.lifecycle}, circuit ${worker.circuit}, ${worker.inFlight} in flight, ${worker.requests} requests`,
    )
    .join("\n");
  return { label: String(workers.length), title };
}

/** Which backend, and whether requests may go to it. */
const STATE_COLUMNS: TDataColumn<TBackendView>[] = [
  {
    key: "id",
    header: "backend",
    cell: (backend) => (
      <span className="mono" title={`${backend.kind} at ${backend.baseUrl}, model ${backend.modelName}`}>
        {backend.id}
      </span>
    ),
  },
  {
    key: "health",
    header: "health",
    cell: (backend) => {
      const { tone, label } = health(backend);
      return (
        <Badge tone={tone} testId={`backend-health-${backend.id}`}>
          {label}
        </Badge>
      );
    },
  },
  {
    key: "lifecycle",
    header: "state",
    cell: (backend) => (
      <Badge tone={LIFECYCLE_TONES[backend.lifecycle]} testId={`backend-lifecycle-${backend.id}`}>
        {backend.lifecycle}
      </Badge>
    ),
  },
  {
    key: "circuit",
    header: "circuit",
    cell: (backend) => (
      <Badge
        tone={CIRCUIT_TONES[backend.circuit]}
        testId={`backend-circuit-${backend.id}`}
        title={`${backend.consecutiveFailures} failed requests in a row`}
      >
        {backend.circuit}
      </Badge>
    ),
  },
];

/** Its load, throughput, cache and weights. */
const LOAD_COLUMNS: TDataColumn<TBackendView>[] = [
  {
    key: "inFlight",
    header: "in flight / max",
    isNumeric: true,
    cell: (backend) => `${backend.inFlight} / ${backend.maxConcurrency}`,
    cellTestId: (backend) => `backend-inflight-${backend.id}`,
  },
  {
    key: "tokensPerSec",
    header: "tokens/s",
    isNumeric: true,
    cell: (backend) => formatNumber(backend.stats.responseTokensPerSec, 1),
    cellTestId: (backend) => `backend-tps-${backend.id}`,
  },
  {
    key: "requests",
    header: "requests (errors)",
    isNumeric: true,
    cell: (backend) => `${backend.stats.requests} (${backend.stats.errors})`,
    cellTestId: (backend) => `backend-requests-${backend.id}`,
  },
  {
    key: "hitRate",
    header: "prefix-cache hit rate",
    isNumeric: true,
    cell: (backend) => formatPercent(backend.stats.prefixCacheHitRate),
    cellTestId: (backend) => `backend-hit-rate-${backend.id}`,
  },
  {
    key: "latency",
    header: "mean latency",
    isNumeric: true,
    cell: (backend) => (backend.stats.requests === 0 ? "—" : formatDurationMs(backend.stats.meanLatencyMs)),
  },
  {
    key: "workers",
    header: "workers",
    isNumeric: true,
    cell: (backend) => {
      const { label, title } = workersCell(backend);
      return <span title={title}>{label}</span>;
    },
    cellTestId: (backend) => `backend-workers-${backend.id}`,
  },
  {
    key: "weights",
    header: "weight version",
    cell: (backend) => backend.weightVersion ?? "unknown",
    cellTestId: (backend) => `backend-weights-${backend.id}`,
  },
];

/**
 * Every registered backend: routing state, load, throughput, cache and the admin actions. In
 * distributed mode the figures are the whole deployment's (the server's merged with every live
 * worker's heartbeat), and the workers column says how many report it.
 */
export function BackendsTable({
  backends,
  blockReason,
}: {
  backends: readonly TBackendView[];
  blockReason: string | null;
}) {
  const actions: TDataColumn<TBackendView> = {
    key: "actions",
    header: "actions",
    cell: (backend) => <BackendActions backend={backend} blockReason={blockReason} />,
  };
  return (
    <DataTable
      caption="Registered inference backends"
      testId="backends-table"
      rowKey={(backend) => backend.id}
      rowTestId={(backend) => `backend-${backend.id}`}
      rows={backends}
      columns={[...STATE_COLUMNS, ...LOAD_COLUMNS, actions]}
    />
  );
}
