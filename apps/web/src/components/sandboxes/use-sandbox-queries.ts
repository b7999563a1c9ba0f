"use client";

import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { recentSandboxFailures } from "../../lib/charts/sandbox-failures";
import { useTRPC } from "../../trpc/trpc-context";
import { READY_EVENTS_LIMIT } from "./ready-latency";
import type { sandboxQueryInput } from "./sandbox-filters.types";

/** How often the page asks for fresh counts, in ms. */
const SANDBOXES_REFRESH_MS = 2_000;
/** Per-worker counts are one query per worker: asked less often, so a large fleet stays cheap. */
const PER_WORKER_REFRESH_MS = 10_000;

/**
 * What the sandboxes page shows, kept fresh: the summary, ready/crash/start-failure/close events,
 * the limits in force, the live workers and each one's summary; failures and per-worker counts
 * derived from them.
 */
export function useSandboxQueries(input: ReturnType<typeof sandboxQueryInput>) {
  const trpc = useTRPC();
  const live = { refetchInterval: SANDBOXES_REFRESH_MS, placeholderData: keepPreviousData };
  const summary = useQuery(trpc.sandboxes.summary.queryOptions(input, live));
  const ready = useQuery(
    trpc.sandboxes.events.queryOptions({ ...input, type: "ready", limit: READY_EVENTS_LIMIT }, live),
  );
  const crashed = useQuery(
    trpc.sandboxes.events.queryOptions({ ...input, type: "crashed", limit: 50 }, live),
  );
  const startFailed = useQuery(
    trpc.sandboxes.events.queryOptions({ ...input, type: "start_failed", limit: 50 }, live),
  );
  const closed = useQuery(trpc.sandboxes.events.queryOptions({ ...input, type: "closed", limit: 500 }, live));
  const health = useQuery(trpc.system.health.queryOptions(undefined, { staleTime: 60_000 }));
  const workers = useQuery(trpc.workers.list.queryOptions({ includeStopped: false }, live));
  const workerList = workers.data?.workers ?? [];
  const perWorker = useQueries({
    queries: workerList.map((worker) =>
      trpc.sandboxes.summary.queryOptions(
        { ...input, hostId: worker.id },
        { refetchInterval: PER_WORKER_REFRESH_MS, placeholderData: keepPreviousData },
      ),
    ),
  });

  const failures = useMemo(
    () =>
      recentSandboxFailures([
        ...(crashed.data?.events ?? []),
        ...(startFailed.data?.events ?? []),
        ...(closed.data?.events ?? []),
      ]),
    [crashed.data, startFailed.data, closed.data],
  );
  const seenByWorker = new Map(
    workerList.map((worker, index) => [worker.id, perWorker[index]?.data?.sandboxes]),
  );
  return { summary, ready, crashed, health, workers, workerList, failures, seenByWorker };
}
