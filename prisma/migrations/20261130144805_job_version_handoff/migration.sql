-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "handoff" JSONB,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;
