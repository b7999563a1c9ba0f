-- AlterTable
ALTER TABLE "workers" ADD COLUMN     "images" JSONB,
ADD COLUMN     "prefetch_requests" JSONB NOT NULL DEFAULT '[]';
