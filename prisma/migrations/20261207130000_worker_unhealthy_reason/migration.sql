-- A worker that runs but takes no work (its sandboxes fail to start) says why with each heartbeat.
ALTER TABLE "workers" ADD COLUMN "unhealthy_reason" TEXT;
