"use client";

import { EmptyState } from "@raas/ui/empty-state";
import { LoadingState } from "@raas/ui/loading-state";
import { StateMessage } from "@raas/ui/state-message";
import { useQueries } from "@tanstack/react-query";
import { isTRPCClientError } from "@trpc/client";
import Link from "next/link";
import { useMemo } from "react";
import { instanceMatrix } from "../../lib/charts/benchmark-matrix";
import { compareHref } from "../../lib/charts/benchmark-runs";
import { useTRPCClient } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { runWithResultsQuery, type TRunWithResults } from "./benchmark-queries";
import styles from "./benchmarks.module.css";
import { InstanceMatrix } from "./instance-matrix";
import { ResolvedSideBySide } from "./resolved-side-by-side";

function isNotFound(error: unknown): boolean {
  return isTRPCClientError(error) && (error.data as { code?: string } | undefined)?.code === "NOT_FOUND";
}

/**
 * The comparison report of the runs in the URL (`?runs=a,b`): resolved % side by side with the
 * published reference rows, and the per-instance matrix. The server prefetches every run, so
 * this renders complete on first paint; it fetches on its own only what the server could not.
 */
export function CompareView({ runIds, isSplitOnly }: { runIds: readonly string[]; isSplitOnly: boolean }) {
  const client = useTRPCClient();
  const queries = useQueries({ queries: runIds.map((runId) => runWithResultsQuery(client, runId)) });

  const loaded = queries.flatMap((query) => (query.data ? [query.data] : []));
  const matrix = useMemo(
    () => instanceMatrix(loaded.map((entry: TRunWithResults) => entry.results)),
    [loaded],
  );

  if (runIds.length === 0) {
    return (
      <EmptyState title="No runs to compare.">
        <p>
          Pick two or more runs on the <Link href="/benchmarks">Benchmarks</Link> page, or name them in the
          URL: <code>/benchmarks/compare?runs=run-a,run-b</code>.
        </p>
      </EmptyState>
    );
  }
  if (queries.some((query) => query.isPending)) return <LoadingState title="Loading the runs' results…" />;

  const runs = loaded.map((entry) => entry.run);
  const datasets = new Set(runs.map((run) => run.dataset));
  return (
    <div data-testid="compare-view">
      <p className={styles.hint}>
        Comparing {runs.map((run) => run.id).join(", ")} · this page&apos;s URL shares the comparison ·{" "}
        <Link href="/benchmarks">all runs</Link>
      </p>
      {queries.map((query, index) =>
        query.isError ? (
          isNotFound(query.error) ? (
            <StateMessage kind="error" title={`No benchmark run "${runIds[index]}".`} key={runIds[index]}>
              <p>
                Check the id in the URL, or pick runs on the <Link href="/benchmarks">Benchmarks</Link> page.
              </p>
            </StateMessage>
          ) : (
            <ErrorState key={runIds[index]} what={`run ${runIds[index]}`} error={query.error} />
          )
        ) : null,
      )}
      {runs.length === 1 && runIds.length === 1 ? (
        <p className={styles.hint}>
          One run: its per-instance results. Pick more on the <Link href="/benchmarks">Benchmarks</Link> page
          to compare.
        </p>
      ) : null}
      {datasets.size > 1 ? (
        <p className={styles.referenceNote}>
          These runs used different datasets ({[...datasets].join(", ")}): an instance only one of them has
          shows “no result” for the others.
        </p>
      ) : null}
      {runs.length > 0 ? (
        <>
          <ResolvedSideBySide runs={runs} solvedOnlyBy={matrix.solvedOnlyBy} />
          <InstanceMatrix
            runs={runs}
            matrix={matrix}
            isSplitOnly={isSplitOnly}
            hrefFor={(splitOnly) => compareHref(runIds, splitOnly)}
          />
        </>
      ) : null}
    </div>
  );
}
