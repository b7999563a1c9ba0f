-- AlterTable (the run's free-form JSON was `metadata`; renamed, not dropped, so rows keep it)
ALTER TABLE "training_runs" RENAME COLUMN "metadata" TO "config";

-- AlterTable
ALTER TABLE "training_runs" ADD COLUMN     "dataset" TEXT,
ADD COLUMN     "run_key" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'active',
ADD COLUMN     "step_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "task_cursors" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "training_steps" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "step_key" TEXT,
    "status" TEXT NOT NULL,
    "group_size" INTEGER NOT NULL,
    "groups" INTEGER NOT NULL,
    "policy" TEXT NOT NULL,
    "stats" JSONB NOT NULL,
    "delivered_seq" INTEGER NOT NULL,
    "request" JSONB NOT NULL,
    "next_task_index" INTEGER NOT NULL,
    "rewards" JSONB NOT NULL,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "closed_at_ms" DOUBLE PRECISION,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "training_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "training_groups" (
    "id" TEXT NOT NULL,
    "step_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "task" JSONB NOT NULL,
    "decision" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "seq" INTEGER,
    "members" JSONB NOT NULL,
    "carried_into_group_id" TEXT,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "decided_at_ms" DOUBLE PRECISION,
    "finished_at_ms" DOUBLE PRECISION,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "training_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "policy_state" (
    "id" INTEGER NOT NULL,
    "weight_version" DOUBLE PRECISION,
    "is_paused" BOOLEAN NOT NULL,
    "pause_mode" TEXT,
    "paused_at_ms" DOUBLE PRECISION,

    CONSTRAINT "policy_state_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "training_steps_run_id_index_idx" ON "training_steps"("run_id", "index");

-- CreateIndex
CREATE INDEX "training_steps_status_idx" ON "training_steps"("status");

-- CreateIndex
CREATE UNIQUE INDEX "training_steps_run_id_step_key_key" ON "training_steps"("run_id", "step_key");

-- CreateIndex
CREATE INDEX "training_groups_step_id_created_at_ms_idx" ON "training_groups"("step_id", "created_at_ms");

-- CreateIndex
CREATE INDEX "training_groups_run_id_state_carried_into_group_id_created__idx" ON "training_groups"("run_id", "state", "carried_into_group_id", "created_at_ms");

-- CreateIndex
CREATE UNIQUE INDEX "training_runs_run_key_key" ON "training_runs"("run_key");

-- CreateIndex
CREATE INDEX "training_runs_created_at_ms_id_idx" ON "training_runs"("created_at_ms", "id");

-- AddForeignKey
ALTER TABLE "training_steps" ADD CONSTRAINT "training_steps_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "training_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "training_groups" ADD CONSTRAINT "training_groups_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "training_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;
