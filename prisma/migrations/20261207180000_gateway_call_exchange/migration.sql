-- AlterTable
ALTER TABLE "gateway_calls" ADD COLUMN     "exchange" JSONB;
