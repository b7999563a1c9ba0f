import { isTerminalStatus } from "../../lib/domain";
import { formatDurationMs } from "../../lib/format";
import type { TJobView } from "../../trpc/router-types";

const SEGMENTS = [
  { id: "queue", label: "queue", key: "queueMs" },
  { id: "init", label: "INIT", key: "initMs" },
  { id: "run", label: "RUN", key: "runMs" },
  { id: "eval", label: "EVAL", key: "evalMs" },
] as const;

/** Where the job's time went: waiting in stage queues, then INIT, RUN and EVAL, to scale. */
export function StageTimingStrip({ job }: { job: TJobView }) {
  const values = SEGMENTS.map((segment) => ({ ...segment, ms: job.timings[segment.key] }));
  const totalMs = values.reduce((sum, segment) => sum + (segment.ms ?? 0), 0);
  return (
    <section aria-labelledby="timing-heading">
      <h2 id="timing-heading">Stage timing</h2>
      <div className="timing-strip" data-testid="timing-strip">
        {values.map((segment) => (
          <div
            key={segment.id}
            className={`timing-segment timing-${segment.id}`}
            style={{ flexGrow: totalMs > 0 && segment.ms ? segment.ms / totalMs : 0 }}
            title={`${segment.label}: ${formatDurationMs(segment.ms)}`}
          />
        ))}
      </div>
      <ul className="timing-legend">
        {values.map((segment) => (
          <li key={segment.id} data-testid={`timing-${segment.id}`}>
            <span className={`swatch timing-${segment.id}`} />
            {segment.label} {formatDurationMs(segment.ms)}
          </li>
        ))}
      </ul>
      {!isTerminalStatus(job.status) ? <p className="muted">Timings grow while the job runs.</p> : null}
    </section>
  );
}
