-- CreateTable
CREATE TABLE "teacher_scores" (
    "job_id" TEXT NOT NULL,
    "teacher" JSONB NOT NULL,
    "backend_id" TEXT,
    "scored_tokens" INTEGER NOT NULL,
    "logprobs" BYTEA,
    "missing_reason" TEXT,
    "created_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "teacher_scores_pkey" PRIMARY KEY ("job_id")
);
