-- Tenants: jobs, runs and backends name the policy they belong to (the weights a run trains and
-- the backends that serve them), and a job records the fingerprint of the token that submitted it.
-- The single policy_state row becomes the "default" policy's row of a table with one row per
-- policy (its owner, weight version and pause). Existing jobs, runs and backends belong to the
-- default policy; existing jobs have no owner (any trainer may cancel them, as before), and the
-- default policy has none until a trainer claims it.
-- AlterTable
ALTER TABLE "backends" ADD COLUMN     "policy_id" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "owner_id" TEXT,
ADD COLUMN     "policy_id" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "training_runs" ADD COLUMN     "policy_id" TEXT NOT NULL DEFAULT 'default';

-- CreateTable
CREATE TABLE "policies" (
    "id" TEXT NOT NULL,
    "owner_id" TEXT,
    "weight_version" DOUBLE PRECISION,
    "is_paused" BOOLEAN NOT NULL DEFAULT false,
    "pause_mode" TEXT,
    "paused_at_ms" DOUBLE PRECISION,

    CONSTRAINT "policies_pkey" PRIMARY KEY ("id")
);

-- The one policy there was is the default policy.
INSERT INTO "policies" ("id", "owner_id", "weight_version", "is_paused", "pause_mode", "paused_at_ms")
SELECT 'default', NULL, "weight_version", "is_paused", "pause_mode", "paused_at_ms" FROM "policy_state" WHERE "id" = 1;

-- DropTable
DROP TABLE "policy_state";
