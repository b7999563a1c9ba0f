-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "training_runs" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "model" TEXT,
    "metadata" JSONB,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "updated_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "training_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batches" (
    "id" TEXT NOT NULL,
    "training_run_id" TEXT,
    "step" INTEGER,
    "status" TEXT NOT NULL,
    "requested_groups" INTEGER NOT NULL,
    "group_size" INTEGER NOT NULL,
    "dynamic_sampling" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "updated_at_ms" DOUBLE PRECISION NOT NULL,
    "finished_at_ms" DOUBLE PRECISION,

    CONSTRAINT "batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "groups" (
    "id" TEXT NOT NULL,
    "batch_id" TEXT,
    "task_instance_id" TEXT,
    "size" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "metadata" JSONB,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "updated_at_ms" DOUBLE PRECISION NOT NULL,
    "decided_at_ms" DOUBLE PRECISION,

    CONSTRAINT "groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_instances" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "dataset" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "task_instances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "job_key" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "stage" TEXT,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "group_id" TEXT,
    "batch_id" TEXT,
    "payload" JSONB NOT NULL,
    "metadata" JSONB,
    "timeouts_ms" JSONB,
    "failure_kind" TEXT,
    "failure_stage" TEXT,
    "failure_message" TEXT,
    "reward" DOUBLE PRECISION,
    "trainable" BOOLEAN,
    "result" JSONB,
    "queue_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "init_ms" DOUBLE PRECISION,
    "run_ms" DOUBLE PRECISION,
    "eval_ms" DOUBLE PRECISION,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "updated_at_ms" DOUBLE PRECISION NOT NULL,
    "finished_at_ms" DOUBLE PRECISION,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "turns" (
    "job_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "prompt_ids" BYTEA NOT NULL,
    "response_ids" BYTEA NOT NULL,
    "logprobs" BYTEA NOT NULL,
    "prompt_tokens" INTEGER NOT NULL,
    "response_tokens" INTEGER NOT NULL,
    "backend_id" TEXT,
    "weight_version" TEXT,
    "cached_prompt_tokens" INTEGER NOT NULL,
    "latency_ms" DOUBLE PRECISION NOT NULL,
    "finish_reason" TEXT,
    "text" TEXT,
    "created_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "turns_pkey" PRIMARY KEY ("job_id","index")
);

-- CreateTable
CREATE TABLE "tool_calls" (
    "job_id" TEXT NOT NULL,
    "turn_index" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "arguments" JSONB,
    "output" TEXT NOT NULL,
    "exit_code" INTEGER,
    "duration_ms" DOUBLE PRECISION NOT NULL,
    "is_error" BOOLEAN NOT NULL,
    "created_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "tool_calls_pkey" PRIMARY KEY ("job_id","turn_index","index")
);

-- CreateTable
CREATE TABLE "backends" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "weight_version" TEXT,
    "status" TEXT NOT NULL,
    "max_inflight" INTEGER,
    "metadata" JSONB,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "updated_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "backends_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "backend_stats" (
    "id" BIGSERIAL NOT NULL,
    "backend_id" TEXT NOT NULL,
    "at_ms" DOUBLE PRECISION NOT NULL,
    "inflight" INTEGER NOT NULL,
    "healthy" BOOLEAN NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "cached_prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "generated_tokens" BIGINT NOT NULL DEFAULT 0,
    "latency_p50_ms" DOUBLE PRECISION,
    "latency_p95_ms" DOUBLE PRECISION,

    CONSTRAINT "backend_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandboxes" (
    "id" TEXT NOT NULL,
    "job_id" TEXT,
    "runtime" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "closed_at_ms" DOUBLE PRECISION,

    CONSTRAINT "sandboxes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_events" (
    "id" BIGSERIAL NOT NULL,
    "sandbox_id" TEXT NOT NULL,
    "job_id" TEXT,
    "type" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "detail" JSONB,
    "at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "sandbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "benchmark_runs" (
    "id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dataset" TEXT NOT NULL,
    "split" TEXT,
    "status" TEXT NOT NULL,
    "config" JSONB,
    "total_count" INTEGER NOT NULL DEFAULT 0,
    "resolved_count" INTEGER NOT NULL DEFAULT 0,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "finished_at_ms" DOUBLE PRECISION,

    CONSTRAINT "benchmark_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "benchmark_results" (
    "run_id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "job_id" TEXT,
    "resolved" BOOLEAN NOT NULL,
    "fail_to_pass" JSONB,
    "pass_to_pass" JSONB,
    "detail" JSONB,
    "created_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "benchmark_results_pkey" PRIMARY KEY ("run_id","instance_id")
);

-- CreateIndex
CREATE INDEX "batches_training_run_id_created_at_ms_idx" ON "batches"("training_run_id", "created_at_ms");

-- CreateIndex
CREATE INDEX "groups_batch_id_idx" ON "groups"("batch_id");

-- CreateIndex
CREATE INDEX "task_instances_kind_idx" ON "task_instances"("kind");

-- CreateIndex
CREATE UNIQUE INDEX "task_instances_dataset_instance_id_key" ON "task_instances"("dataset", "instance_id");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_job_key_key" ON "jobs"("job_key");

-- CreateIndex
CREATE INDEX "jobs_status_id_idx" ON "jobs"("status", "id");

-- CreateIndex
CREATE INDEX "jobs_stage_id_idx" ON "jobs"("stage", "id");

-- CreateIndex
CREATE INDEX "jobs_kind_id_idx" ON "jobs"("kind", "id");

-- CreateIndex
CREATE INDEX "jobs_failure_kind_id_idx" ON "jobs"("failure_kind", "id");

-- CreateIndex
CREATE INDEX "jobs_group_id_id_idx" ON "jobs"("group_id", "id");

-- CreateIndex
CREATE INDEX "jobs_batch_id_id_idx" ON "jobs"("batch_id", "id");

-- CreateIndex
CREATE INDEX "jobs_created_at_ms_id_idx" ON "jobs"("created_at_ms", "id");

-- CreateIndex
CREATE INDEX "turns_backend_id_created_at_ms_idx" ON "turns"("backend_id", "created_at_ms");

-- CreateIndex
CREATE INDEX "tool_calls_name_idx" ON "tool_calls"("name");

-- CreateIndex
CREATE INDEX "backend_stats_backend_id_at_ms_idx" ON "backend_stats"("backend_id", "at_ms");

-- CreateIndex
CREATE INDEX "sandboxes_job_id_idx" ON "sandboxes"("job_id");

-- CreateIndex
CREATE INDEX "sandbox_events_job_id_at_ms_idx" ON "sandbox_events"("job_id", "at_ms");

-- CreateIndex
CREATE INDEX "sandbox_events_sandbox_id_at_ms_idx" ON "sandbox_events"("sandbox_id", "at_ms");

-- CreateIndex
CREATE INDEX "benchmark_runs_model_dataset_created_at_ms_idx" ON "benchmark_runs"("model", "dataset", "created_at_ms");

-- CreateIndex
CREATE INDEX "benchmark_results_instance_id_idx" ON "benchmark_results"("instance_id");

-- AddForeignKey
ALTER TABLE "batches" ADD CONSTRAINT "batches_training_run_id_fkey" FOREIGN KEY ("training_run_id") REFERENCES "training_runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "backend_stats" ADD CONSTRAINT "backend_stats_backend_id_fkey" FOREIGN KEY ("backend_id") REFERENCES "backends"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "benchmark_results" ADD CONSTRAINT "benchmark_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "benchmark_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
