-- AlterTable
ALTER TABLE "gateway_calls" ADD COLUMN     "top_logprobs" JSONB;
