-- AlterTable
ALTER TABLE "training_runs" ADD COLUMN     "image" TEXT;
