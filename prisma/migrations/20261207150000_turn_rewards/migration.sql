-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "turn_rewards" JSONB;

-- AlterTable
ALTER TABLE "tool_calls" ADD COLUMN     "reward" DOUBLE PRECISION;
