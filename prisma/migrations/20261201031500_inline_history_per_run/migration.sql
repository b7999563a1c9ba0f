-- Inline task sources keep their per-task history under `inline:<run id>` (was `inline` for every
-- run, which pooled unrelated runs' tasks that share ids in the dataset-wide rows). An inline
-- source's dataset-wide scope is its run: its dataset-wide rows (run_id '') become copies of the
-- run's own, and the pooled ones go.
UPDATE "task_history" SET "dataset" = 'inline:' || "run_id" WHERE "dataset" = 'inline' AND "run_id" <> '';
INSERT INTO "task_history"
  ("dataset", "run_id", "task_id", "attempts", "successes", "recent", "solved_in_a_row", "last_attempt_at_ms")
  SELECT "dataset", '', "task_id", "attempts", "successes", "recent", "solved_in_a_row", "last_attempt_at_ms"
    FROM "task_history" WHERE "dataset" LIKE 'inline:%' AND "run_id" <> ''
  ON CONFLICT ("dataset", "run_id", "task_id") DO NOTHING;
DELETE FROM "task_history" WHERE "dataset" = 'inline';
UPDATE "task_sampler_states" SET "dataset" = 'inline:' || "run_id" WHERE "dataset" = 'inline';
