-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "archive_bytes" INTEGER,
ADD COLUMN     "archive_offset" DOUBLE PRECISION,
ADD COLUMN     "archive_path" TEXT,
ADD COLUMN     "archived_at_ms" DOUBLE PRECISION,
ADD COLUMN     "run_id" TEXT,
ADD COLUMN     "task_id" TEXT;

-- AlterTable
ALTER TABLE "turns" ADD COLUMN     "prompt_prefix_hash" INTEGER,
ADD COLUMN     "prompt_prefix_tokens" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "jobs_run_id_id_idx" ON "jobs"("run_id", "id");

-- CreateIndex
CREATE INDEX "jobs_task_id_id_idx" ON "jobs"("task_id", "id");

-- CreateIndex
CREATE INDEX "jobs_reward_id_idx" ON "jobs"("reward", "id");


-- Backfill: the run and task filters read these columns instead of metadata->>'runId'/'taskId'.
UPDATE "jobs"
SET "run_id" = CASE WHEN jsonb_typeof("metadata"->'runId') = 'string' THEN "metadata"->>'runId' END,
    "task_id" = CASE WHEN jsonb_typeof("metadata"->'taskId') = 'string' THEN "metadata"->>'taskId' END
WHERE "metadata" ? 'runId' OR "metadata" ? 'taskId';
