-- Several experiments on one service: a run's fair share (weight), scheduling priority, cap on
-- sandboxes, and the fingerprint of the token that owns it. Existing runs get share 1, priority 0,
-- no cap and no owner (any trainer may write to them, as before).
-- AlterTable
ALTER TABLE "training_runs" ADD COLUMN     "share" DOUBLE PRECISION NOT NULL DEFAULT 1,
ADD COLUMN     "priority" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "max_sandboxes" INTEGER,
ADD COLUMN     "owner_id" TEXT;
