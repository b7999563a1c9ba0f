import { Section } from "@raas/ui/section";
import { formatDurationMs } from "../../lib/format";
import type { TJobView, TToolCallView, TTurnView } from "../../trpc/router-types";
import { activityTimeline } from "./activity-timeline";
import styles from "./trajectory.module.css";

const STAGES = [
  { id: "queue", label: "queued", key: "queueMs" },
  { id: "init", label: "INIT", key: "initMs" },
  { id: "run", label: "RUN", key: "runMs" },
  { id: "eval", label: "EVAL", key: "evalMs" },
] as const;

/** Where the time went: the stages to scale, and inside RUN each generation and tool call on one axis. */
export function TimingPanel({
  job,
  turns,
  toolCalls,
}: {
  job: TJobView;
  turns: readonly TTurnView[];
  toolCalls: readonly TToolCallView[];
}) {
  const stages = STAGES.map((stage) => ({ ...stage, ms: job.timings[stage.key] }));
  const totalMs = stages.reduce((sum, stage) => sum + (stage.ms ?? 0), 0);
  const { activities, spanMs } = activityTimeline(turns, toolCalls);
  const percent = (ms: number) => (spanMs > 0 ? `${(ms / spanMs) * 100}%` : "0%");
  return (
    <Section
      id="timing"
      title="Timing"
      description="Stages to scale; below, the agent loop's generations and tool calls."
    >
      <div className={styles.stageStrip} data-testid="stage-strip">
        {stages.map((stage) => (
          <div
            key={stage.id}
            className={`${styles.stage} ${styles[stage.id]}`}
            style={{ flexGrow: totalMs > 0 && stage.ms ? stage.ms / totalMs : 0 }}
            title={`${stage.label}: ${formatDurationMs(stage.ms)}`}
          />
        ))}
      </div>
      <ul className={styles.legend}>
        {stages.map((stage) => (
          <li key={stage.id} data-testid={`stage-${stage.id}`}>
            <span className={`${styles.swatch} ${styles[stage.id]}`} />
            {stage.label} {formatDurationMs(stage.ms)}
          </li>
        ))}
      </ul>
      {activities.length > 0 ? (
        <>
          <div className={styles.strip} data-testid="activity-strip">
            {activities.map((activity) => (
              <div
                key={`${activity.label}-${activity.startMs}`}
                className={activity.kind === "generation" ? styles.generation : styles.tool}
                style={{ left: percent(activity.startMs), width: percent(activity.endMs - activity.startMs) }}
                title={`${activity.label}: ${formatDurationMs(activity.endMs - activity.startMs)} at +${formatDurationMs(activity.startMs)}`}
              />
            ))}
          </div>
          <ul className={styles.legend}>
            <li>
              <span className={`${styles.swatch} ${styles.generation}`} style={{ position: "static" }} />
              model generation
            </li>
            <li>
              <span className={`${styles.swatch} ${styles.tool}`} style={{ position: "static" }} />
              tool call
            </li>
            <li>{formatDurationMs(spanMs)} from the first generation to the last event</li>
          </ul>
          <details>
            <summary>Every generation and tool call ({activities.length})</summary>
            <ol className={styles.activityList} data-testid="activity-list">
              {activities.map((activity) => (
                <li key={`${activity.label}-${activity.startMs}`}>
                  +{formatDurationMs(activity.startMs)} {activity.label} (
                  {formatDurationMs(activity.endMs - activity.startMs)})
                </li>
              ))}
            </ol>
          </details>
        </>
      ) : null}
    </Section>
  );
}
