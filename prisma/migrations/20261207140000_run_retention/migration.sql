-- AlterTable
ALTER TABLE "training_runs" ADD COLUMN     "retention" JSONB;
