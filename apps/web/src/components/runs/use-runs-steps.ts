"use client";

import { useQueries } from "@tanstack/react-query";
import type { TRunSteps } from "../../lib/charts/run-curves";
import { useTRPC } from "../../trpc/trpc-context";
import { RUNS_REFRESH_MS, type TRunView } from "./run-types";

/** The steps of each run (one `runs.steps` query per run), refreshed while a run is active. */
export function useRunsSteps(runs: readonly TRunView[]) {
  const trpc = useTRPC();
  const results = useQueries({
    queries: runs.map((run) =>
      trpc.runs.steps.queryOptions(
        { runId: run.id },
        { refetchInterval: run.status === "active" ? RUNS_REFRESH_MS : false },
      ),
    ),
  });
  const loaded: TRunSteps[] = [];
  runs.forEach((run, index) => {
    const steps = results[index]?.data?.items;
    if (steps) loaded.push({ run: { id: run.id, name: run.name }, steps });
  });
  return {
    runsSteps: loaded,
    isPending: results.some((result) => result.isPending),
    error: results.find((result) => result.error)?.error ?? null,
  };
}
