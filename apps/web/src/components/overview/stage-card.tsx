import type { TStage } from "@raas/shared";
import type { TStatsView } from "../../trpc/router-types";

/** Queued and active jobs of one stage, and how full its pool is. */
export function StageCard({ stage, counts }: { stage: TStage; counts: TStatsView["stages"][TStage] }) {
  const isPaused = counts.concurrency === 0;
  return (
    <article className="card stage-card" data-testid={`stage-${stage}`}>
      <h3>{stage.toUpperCase()}</h3>
      <dl className="counts">
        <div>
          <dt>queued</dt>
          <dd data-testid={`stage-${stage}-queued`}>{counts.queued}</dd>
        </div>
        <div>
          <dt>active</dt>
          <dd data-testid={`stage-${stage}-active`}>{counts.active}</dd>
        </div>
      </dl>
      <p className="muted">
        {isPaused ? "paused (concurrency 0)" : `${counts.active} of ${counts.concurrency} slots in use`}
      </p>
    </article>
  );
}
