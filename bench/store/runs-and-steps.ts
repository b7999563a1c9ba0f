// The runs, steps and groups the synthetic trajectories belong to, with pre-aggregated step
// statistics (what the dashboard's reward curves read instead of scanning trajectories).
import { emptyStepStats, ZCreateStepRequest } from "@raas/shared";
import pg from "pg";
import { groupIdOf, LAYOUT, runIdOf, stepIdOf } from "./synthetic-trajectories";

const STEPS_PER_STATEMENT = 500;

/** A step's validated request (its `runId` is set per step in SQL). */
const STEP_REQUEST = JSON.stringify(
  ZCreateStepRequest.parse({
    runId: runIdOf(0),
    tasks: { type: "dataset", dataset: "math-bench" },
    groupSize: LAYOUT.groupSize,
    groups: LAYOUT.perStep / LAYOUT.groupSize,
  }),
);

/** A finished step's running reward sums: half its samples solved. */
const STEP_REWARDS = JSON.stringify({
  count: LAYOUT.perStep,
  sum: LAYOUT.perStep / 2,
  sumOfSquares: LAYOUT.perStep / 2,
  min: 0,
  max: 1,
  finished: LAYOUT.perStep,
  solved: LAYOUT.perStep / 2,
  deliveredTokens: LAYOUT.perStep * 1_150,
});

/** A delivered group's members, every field as the batch system keeps it. */
const GROUP_MEMBERS = JSON.stringify(
  Array.from({ length: LAYOUT.groupSize }, (_, slot) => ({
    slot,
    jobId: `job_bench_member_${slot}`,
    status: "finished",
    reward: slot % 2,
    failureKind: null,
    attempts: 1,
    dispatchVersion: 3,
    isStale: false,
    carriedFromStepId: null,
    rolloutMs: 42_000,
    generatedTokens: 1_150,
    pastJobIds: [],
  })),
);

export async function loadRunsAndSteps(databaseUrl: string, trajectories: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const steps = Math.max(1, Math.ceil(trajectories / LAYOUT.perStep));
    const runs = Math.min(LAYOUT.runs, steps);
    const startMs = Date.UTC(2026, 9, 1);
    await client.query(
      `INSERT INTO training_runs (id, name, model, dataset, status, step_count, created_at_ms, updated_at_ms)
       SELECT id, id, 'Qwen3-8B', 'math-bench', 'active', $2, $3, $3 FROM unnest($1::text[]) AS v(id)`,
      [Array.from({ length: runs }, (_, r) => runIdOf(r)), Math.ceil(steps / runs), startMs],
    );
    const groupsPerStep = LAYOUT.perStep / LAYOUT.groupSize;
    for (let from = 0; from < steps; from += STEPS_PER_STATEMENT) {
      const to = Math.min(steps, from + STEPS_PER_STATEMENT);
      const ids: string[] = [];
      const runIds: string[] = [];
      const indexes: number[] = [];
      const stats: string[] = [];
      const created: number[] = [];
      const groupRows: { id: string[]; step: string[]; run: string[]; task: string[]; created: number[] } = {
        id: [],
        step: [],
        run: [],
        task: [],
        created: [],
      };
      for (let s = from; s < to; s += 1) {
        const reward = 0.3 + (0.4 * Math.floor(s / runs)) / Math.max(1, steps / runs);
        ids.push(stepIdOf(s));
        runIds.push(runIdOf(s % runs));
        indexes.push(Math.floor(s / runs));
        created.push(startMs + s * LAYOUT.perStep * 50);
        stats.push(
          JSON.stringify({
            ...emptyStepStats(),
            groupsStarted: groupsPerStep,
            groupsDecided: groupsPerStep,
            informative: Math.round(groupsPerStep * 0.6),
            uninformative: groupsPerStep - Math.round(groupsPerStep * 0.6),
            groupsDelivered: groupsPerStep,
            jobsSubmitted: LAYOUT.perStep,
            trajectories: LAYOUT.perStep,
            rewardMean: reward,
            rewardStd: 0.4,
            rewardMin: 0,
            rewardMax: 1,
            solvedFraction: reward,
            meanTrajectoryTokens: 1_150,
          }),
        );
        for (let g = 0; g < groupsPerStep; g += 1) {
          groupRows.id.push(groupIdOf(s, g));
          groupRows.step.push(stepIdOf(s));
          groupRows.run.push(runIdOf(s % runs));
          groupRows.task.push(`task-${g}`);
          groupRows.created.push(startMs + s * LAYOUT.perStep * 50 + g);
        }
      }
      // The JSON columns hold what the batch system stores (the store parses them on read).
      await client.query(
        `INSERT INTO training_steps (id, run_id, index, status, group_size, groups, policy, stats, delivered_seq,
                                     request, next_task_index, rewards, created_at_ms, closed_at_ms)
         SELECT id, run_id, idx, 'completed', $6, $7, 'zero-variance', stats::jsonb, $7,
                jsonb_set($8::jsonb, '{runId}', to_jsonb(run_id)), 0, $9::jsonb, c, c
         FROM unnest($1::text[], $2::text[], $3::int4[], $4::text[], $5::float8[]) AS v(id, run_id, idx, stats, c)`,
        [ids, runIds, indexes, stats, created, LAYOUT.groupSize, groupsPerStep, STEP_REQUEST, STEP_REWARDS],
      );
      await client.query(
        `INSERT INTO training_groups (id, step_id, run_id, task_id, kind, task, decision, state, seq, members, created_at_ms)
         SELECT id, step_id, run_id, task_id, 'math',
                jsonb_build_object('taskId', task_id, 'kind', 'math', 'payload', '{}'::jsonb),
                'informative', 'delivered', 1, $6::jsonb, c
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[]) AS v(id, step_id, run_id, task_id, c)`,
        [groupRows.id, groupRows.step, groupRows.run, groupRows.task, groupRows.created, GROUP_MEMBERS],
      );
    }
  } finally {
    await client.end();
  }
}
