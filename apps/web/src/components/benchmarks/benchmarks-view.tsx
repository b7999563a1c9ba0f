"use client";

import { EmptyState } from "@raas/ui/empty-state";
import { FilterBar } from "@raas/ui/filter-bar";
import { FilterSelect } from "@raas/ui/filter-select";
import { LoadingState } from "@raas/ui/loading-state";
import { Section } from "@raas/ui/section";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { showsSweBench } from "../../lib/charts/benchmark-environment";
import { compareHref, distinctValues, filterRuns, MAX_COMPARED_RUNS } from "../../lib/charts/benchmark-runs";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { RUN_LIST_INPUT } from "./benchmark-queries";
import { BenchmarkRunsTable } from "./benchmark-runs-table";
import styles from "./benchmarks.module.css";
import { ReferenceTable } from "./reference-table";
import { RunEvalHint } from "./run-eval-hint";
import { useBenchmarkFilters } from "./use-benchmark-filters";

/** New runs appear without a reload; runs change rarely, so every 10 s is plenty. */
const RUNS_REFRESH_MS = 10_000;

/**
 * Stored benchmark runs — SWE-bench evaluations and environment runs — to pick and compare, and
 * SWE-bench's published reference figures while SWE-bench runs are shown.
 */
export function BenchmarksView() {
  const trpc = useTRPC();
  const { filters, setFilters } = useBenchmarkFilters();
  const list = useQuery(
    trpc.benchmarks.list.queryOptions(RUN_LIST_INPUT, { refetchInterval: RUNS_REFRESH_MS }),
  );
  const [picked, setPicked] = useState<string[]>([]);

  if (list.isPending) return <LoadingState title="Loading benchmark runs…" />;
  const allRuns = list.data?.runs ?? [];
  const runs = filterRuns(allRuns, filters);
  // A filter that matches nothing says nothing about SWE-bench: decide on what is stored then.
  const isSwe = showsSweBench(runs.length > 0 ? runs : allRuns);
  const selected = picked.filter((id) => allRuns.some((run) => run.id === id));
  const toggle = (runId: string) =>
    setPicked((current) =>
      current.includes(runId)
        ? current.filter((id) => id !== runId)
        : [...current, runId].slice(-MAX_COMPARED_RUNS),
    );

  return (
    <div data-testid="benchmarks-view">
      {list.isError ? <ErrorState what="the benchmark runs" error={list.error} /> : null}
      <Section
        id="runs"
        title="Stored runs"
        description={
          <>
            Benchmark runs stored through the API (<code>benchmarks.*</code>): SWE-bench evaluations (
            <code>raas eval swe</code>) and environments&apos; tasks (<code>raas eval env</code>). Resolved %
            is resolved instances over instances with a result; mean reward is over the results with a reward
            (an environment run&apos;s graded tasks; an error has none). Pick two or more to compare them
            instance by instance.
          </>
        }
      >
        {allRuns.length === 0 && !list.isError ? (
          <EmptyState title="No benchmark runs stored yet.">
            <RunEvalHint isSwe={isSwe} />
          </EmptyState>
        ) : null}
        {allRuns.length > 0 ? (
          <>
            <FilterBar legend="Filter runs">
              <FilterSelect
                name="model"
                label="model"
                value={filters.model}
                options={distinctValues(allRuns, "model")}
                onChange={(model) => setFilters({ model })}
                anyLabel="all models"
              />
              <FilterSelect
                name="dataset"
                label="dataset"
                value={filters.dataset}
                options={distinctValues(allRuns, "dataset")}
                onChange={(dataset) => setFilters({ dataset })}
                anyLabel="all datasets"
              />
            </FilterBar>
            <div className={styles.toolbar}>
              {selected.length >= 2 ? (
                <Link href={compareHref(selected)} className={styles.compareLink} data-testid="compare-link">
                  Compare {selected.length} runs
                </Link>
              ) : (
                <button type="button" disabled data-testid="compare-link">
                  Compare runs
                </button>
              )}
              <span className={styles.hint} data-testid="compare-hint">
                {selected.length >= 2
                  ? `Picked: ${selected.join(", ")}`
                  : `Pick ${2 - selected.length} more run${selected.length === 1 ? "" : "s"} to compare.`}
              </span>
            </div>
            {runs.length === 0 ? (
              <EmptyState title="No run matches these filters.">
                <p>Pick “all models” and “all datasets” to see every run.</p>
              </EmptyState>
            ) : (
              <BenchmarkRunsTable runs={runs} selected={new Set(selected)} onToggle={toggle} />
            )}
          </>
        ) : null}
      </Section>
      {isSwe ? <ReferenceTable /> : null}
    </div>
  );
}
