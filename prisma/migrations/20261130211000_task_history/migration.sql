-- CreateTable
CREATE TABLE "task_history" (
    "dataset" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "successes" INTEGER NOT NULL,
    "recent" TEXT NOT NULL,
    "solved_in_a_row" INTEGER NOT NULL,
    "last_attempt_at_ms" DOUBLE PRECISION,

    CONSTRAINT "task_history_pkey" PRIMARY KEY ("dataset","run_id","task_id")
);

-- CreateTable
CREATE TABLE "task_sampler_states" (
    "run_id" TEXT NOT NULL,
    "dataset" TEXT NOT NULL,
    "draws" INTEGER NOT NULL,
    "updated_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "task_sampler_states_pkey" PRIMARY KEY ("run_id","dataset")
);

-- CreateTable
CREATE TABLE "curriculum_snapshots" (
    "run_id" TEXT NOT NULL,
    "step_id" TEXT NOT NULL,
    "step_index" INTEGER NOT NULL,
    "at_ms" DOUBLE PRECISION NOT NULL,
    "summary" JSONB NOT NULL,

    CONSTRAINT "curriculum_snapshots_pkey" PRIMARY KEY ("run_id","step_id")
);

-- CreateIndex
CREATE INDEX "curriculum_snapshots_run_id_step_index_idx" ON "curriculum_snapshots"("run_id", "step_index");
