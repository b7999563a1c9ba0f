-- The inference gateway's call records (issue 15), until now kept in the server's memory: one row
-- per model call a harness made, so traces and certificates survive a restart and every process
-- sharing the database reads them. Token arrays are bytea (Int32 ids, Float32 logprobs).
-- CreateTable
CREATE TABLE "gateway_calls" (
    "job_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "call_id" TEXT NOT NULL,
    "parent_call_id" TEXT,
    "prompt_ids" BYTEA NOT NULL,
    "response_ids" BYTEA NOT NULL,
    "logprobs" BYTEA NOT NULL,
    "prompt_tokens" INTEGER NOT NULL,
    "response_tokens" INTEGER NOT NULL,
    "finish_reason" TEXT,
    "backend_id" TEXT,
    "weight_version" TEXT,
    "cached_prompt_tokens" INTEGER,
    "latency_ms" DOUBLE PRECISION NOT NULL,
    "overhead_ms" DOUBLE PRECISION NOT NULL,
    "messages" JSONB NOT NULL,
    "tools" JSONB NOT NULL,
    "answer" JSONB NOT NULL,
    "created_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "gateway_calls_pkey" PRIMARY KEY ("job_id","seq")
);


-- As for turns: high-entropy token arrays are not worth pglz's CPU on every insert. Prisma does
-- not model column storage, so `migrate diff` neither produces nor drops this.
ALTER TABLE "gateway_calls" ALTER COLUMN "prompt_ids" SET STORAGE EXTERNAL;
ALTER TABLE "gateway_calls" ALTER COLUMN "response_ids" SET STORAGE EXTERNAL;
ALTER TABLE "gateway_calls" ALTER COLUMN "logprobs" SET STORAGE EXTERNAL;
