"use client";

import { CardGrid } from "@raas/ui/card-grid";
import { EmptyState } from "@raas/ui/empty-state";
import { LoadingState } from "@raas/ui/loading-state";
import { Section } from "@raas/ui/section";
import { StatCard } from "@raas/ui/stat-card";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { EnvironmentsTable } from "./environments-table";

/** Registrations and oracle checks change rarely: every 10 s is plenty. */
const ENVIRONMENTS_REFRESH_MS = 10_000;

/** Environments registered with the service, their task counts and last oracle checks. */
export function EnvironmentsView() {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.environments.list.queryOptions(undefined, { refetchInterval: ENVIRONMENTS_REFRESH_MS }),
  );
  if (list.isPending) return <LoadingState title="Loading environments…" />;
  if (!list.data) return <ErrorState what="the environments" error={list.error} />;
  const { environments } = list.data;
  const tasks = environments.reduce((sum, env) => sum + env.taskCount, 0);
  const checked = environments.filter((env) => env.oracle !== null);
  const failing = checked.filter((env) => (env.oracle?.failed ?? 0) > 0).length;

  return (
    <div data-testid="environments-view">
      {list.isError ? (
        <ErrorState what="fresh environments (showing the last ones)" error={list.error} />
      ) : null}
      <CardGrid minWidthPx={150}>
        <StatCard label="environments" value={environments.length} testId="environments-count" />
        <StatCard label="tasks" value={tasks} testId="environments-tasks" />
        <StatCard label="oracle checked" value={checked.length} testId="environments-checked" />
        <StatCard label="failing their check" value={failing} testId="environments-failing" />
      </CardGrid>
      <Section
        id="environments"
        title="Registered environments"
        description={
          <>
            Harbor task directories and Python reward-function environments on the server, referenced by name
            from training steps (<code>{'tasks: { type: "dataset", dataset: <name> }'}</code>) and benchmark
            runs. The oracle check runs each task's reference solution (full reward expected) and a no-op
            (none expected): <code>raas env verify &lt;name&gt;</code>.
          </>
        }
      >
        {environments.length === 0 ? (
          <EmptyState title="No environment is registered.">
            <p>
              Register one with <code>raas env register environments/harbor-examples</code> (admin token), or{" "}
              <code>POST /api/v1/environments</code> with its directory on the server.
            </p>
          </EmptyState>
        ) : (
          <EnvironmentsTable environments={environments} />
        )}
      </Section>
    </div>
  );
}
