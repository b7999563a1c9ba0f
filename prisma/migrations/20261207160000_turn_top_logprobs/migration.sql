-- AlterTable
ALTER TABLE "turns" ADD COLUMN     "top_logprobs" JSONB;
