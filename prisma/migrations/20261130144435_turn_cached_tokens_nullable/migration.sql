-- Null = the backend did not report a cached count (NeMo-RL /generate); existing rows keep their value.
-- AlterTable
ALTER TABLE "turns" ALTER COLUMN "cached_prompt_tokens" DROP NOT NULL;
