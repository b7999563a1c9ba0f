-- Environments registered with the service (issue 33): a directory on the server of a known kind
-- (harbor, reward-fn), its task count and its last oracle check; referenced by name from
-- training steps' task sources and benchmark runs.
-- CreateTable
CREATE TABLE "environments" (
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "description" TEXT,
    "task_count" INTEGER NOT NULL,
    "oracle" JSONB,
    "created_at_ms" DOUBLE PRECISION NOT NULL,
    "updated_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "environments_pkey" PRIMARY KEY ("name")
);
