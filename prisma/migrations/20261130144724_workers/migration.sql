-- CreateTable
CREATE TABLE "workers" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "labels" TEXT[],
    "pools" JSONB NOT NULL,
    "sandboxes" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "started_at_ms" DOUBLE PRECISION NOT NULL,
    "heartbeat_at_ms" DOUBLE PRECISION NOT NULL,
    "stopped_at_ms" DOUBLE PRECISION,

    CONSTRAINT "workers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workers_status_heartbeat_at_ms_idx" ON "workers"("status", "heartbeat_at_ms");

