"use client";

import { CardGrid } from "@raas/ui/card-grid";
import { EmptyState } from "@raas/ui/empty-state";
import { LoadingState } from "@raas/ui/loading-state";
import { Section } from "@raas/ui/section";
import { StatCard } from "@raas/ui/stat-card";
import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { THitRateMode } from "../../lib/charts/hit-rate-history";
import { formatNumber } from "../../lib/format";
import { adminBlockReason } from "../../token/admin-block-reason";
import { useTokenAccess } from "../../token/use-token-access";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { WRITE_REASON_ID } from "./backend-actions";
import { BACKENDS_REFRESH_MS } from "./backend-refresh";
import styles from "./backends.module.css";
import { BackendsTable } from "./backends-table";
import { HitRateChart } from "./hit-rate-chart";
import { RegisterBackendForm } from "./register-backend-form";
import { useBackendHistory } from "./use-backend-history";

/** Inference backends: health, circuit, load, throughput, weights, cache hit rate; admin actions. */
export function BackendsView() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const mode: THitRateMode = searchParams.get("rate") === "cumulative" ? "cumulative" : "interval";
  const list = useQuery(trpc.backends.list.queryOptions(undefined, { refetchInterval: BACKENDS_REFRESH_MS }));
  const history = useBackendHistory(list.data?.backends, list.dataUpdatedAt);
  const blockReason = adminBlockReason(
    useTokenAccess(),
    "Registering, draining, resuming or removing a backend",
  );

  if (list.isPending) return <LoadingState title="Loading the inference backends…" />;
  if (!list.data) return <ErrorState what="the backends" error={list.error} />;
  const backends = list.data.backends;
  const healthy = backends.filter((backend) => backend.lastHealthCheck?.isHealthy).length;
  const inFlight = backends.reduce((sum, backend) => sum + backend.inFlight, 0);
  const tokensPerSec = backends.reduce((sum, backend) => sum + backend.stats.responseTokensPerSec, 0);

  return (
    <div data-testid="backends-view">
      {list.isError ? (
        <ErrorState what="fresh backend figures (showing the last ones)" error={list.error} />
      ) : null}
      <CardGrid minWidthPx={150}>
        <StatCard label="backends" value={backends.length} testId="backends-count" />
        <StatCard label="healthy" value={healthy} testId="backends-healthy" />
        <StatCard label="in flight" value={inFlight} testId="backends-inflight" />
        <StatCard label="tokens/s" value={formatNumber(tokensPerSec, 1)} testId="backends-tps" />
      </CardGrid>
      <Section
        id="backends"
        title="Backends"
        description="Routing state and statistics since each backend was registered; refreshed every 2 s."
      >
        {blockReason ? (
          <p id={WRITE_REASON_ID} className={styles.note} data-testid="backend-write-reason">
            {blockReason}
          </p>
        ) : null}
        {backends.length === 0 ? (
          <EmptyState title="No inference backend is registered.">
            <p>
              Register one below (admin token), or start the server with{" "}
              <code>RAAS_BACKENDS=vllm=http://gpu-1:8000</code>; <code>npm start</code> starts the simulator
              when none is configured. Without a backend every agent job fails as an inference failure.
            </p>
          </EmptyState>
        ) : (
          <BackendsTable backends={backends} blockReason={blockReason} />
        )}
      </Section>
      <HitRateChart
        history={history}
        mode={mode}
        onMode={(next) =>
          router.replace(next === "cumulative" ? `${pathname}?rate=cumulative` : pathname, { scroll: false })
        }
      />
      <RegisterBackendForm blockReason={blockReason} />
    </div>
  );
}
