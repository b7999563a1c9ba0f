import { CardGrid } from "@raas/ui/card-grid";
import { Section } from "@raas/ui/section";
import { StatCard } from "@raas/ui/stat-card";
import { SANDBOX_STATES } from "../../lib/domain";
import type { TSandboxSummaryView } from "../../trpc/router-types";

/** How many sandboxes there were and where each is now (its last known state). */
export function StateCounts({ summary }: { summary: TSandboxSummaryView }) {
  return (
    <Section
      id="sandbox-states"
      title="Sandboxes by state"
      description="Every sandbox seen in the window, by its last known state; crashes, failed and cancelled starts are close reasons; a lost worker's open sandboxes are closed as worker_lost."
    >
      <CardGrid minWidthPx={100}>
        <StatCard label="seen" value={summary.sandboxes} testId="sandbox-total" />
        {SANDBOX_STATES.map((state) => (
          <StatCard
            key={state}
            label={state}
            value={summary.byState[state] ?? 0}
            testId={`sandbox-state-${state}`}
          />
        ))}
        <StatCard label="crashed" value={summary.crashed} testId="sandbox-crashed" />
        <StatCard label="failed to start" value={summary.startFailed} testId="sandbox-start-failed" />
        <StatCard label="start cancelled" value={summary.cancelled} testId="sandbox-start-cancelled" />
      </CardGrid>
    </Section>
  );
}
