-- AlterTable
ALTER TABLE "sandboxes" ADD COLUMN     "close_reason" TEXT,
ADD COLUMN     "error" TEXT,
ADD COLUMN     "exit_code" INTEGER,
ADD COLUMN     "exit_signal" TEXT,
ADD COLUMN     "host_id" TEXT,
ADD COLUMN     "lifetime_ms" DOUBLE PRECISION,
ADD COLUMN     "limit_hits" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "limit_kind" TEXT,
ADD COLUMN     "ready_ms" DOUBLE PRECISION,
ADD COLUMN     "stderr_tail" TEXT,
ADD COLUMN     "updated_at_ms" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "sandbox_events" ADD COLUMN     "host_id" TEXT;

-- CreateIndex
CREATE INDEX "sandboxes_created_at_ms_idx" ON "sandboxes"("created_at_ms");

-- CreateIndex
CREATE INDEX "sandboxes_host_id_created_at_ms_idx" ON "sandboxes"("host_id", "created_at_ms");

-- CreateIndex
CREATE INDEX "sandbox_events_at_ms_idx" ON "sandbox_events"("at_ms");

