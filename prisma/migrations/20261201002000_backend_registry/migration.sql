-- Distributed backends: each worker stores its view of its inference backends with every heartbeat
-- (the control plane merges them into backends.list), and backends registered, drained, resumed or
-- removed through the API are kept in "backends" (every process applies them; a restart keeps them).
-- Existing workers report none until their next heartbeat; existing rows get no model name.
-- AlterTable
ALTER TABLE "workers" ADD COLUMN     "backends" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "backends" ADD COLUMN     "model_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0;
