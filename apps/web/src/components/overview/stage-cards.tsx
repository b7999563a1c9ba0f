import { STAGES } from "../../lib/domain";
import type { TStatsView } from "../../trpc/router-types";
import { StageCard } from "./stage-card";

/** One card per stage pool, in lifecycle order. */
export function StageCards({ stages }: { stages: TStatsView["stages"] }) {
  return (
    <section aria-labelledby="stages-heading">
      <h2 id="stages-heading">Stage pools</h2>
      <div className="card-row">
        {STAGES.map((stage) => (
          <StageCard key={stage} stage={stage} counts={stages[stage]} />
        ))}
      </div>
    </section>
  );
}
