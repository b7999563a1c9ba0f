-- Token arrays are high-entropy (ids and float32 logprobs): pglz rarely shrinks them and costs
-- CPU on every insert (measured: turns inserts ~2x faster with EXTERNAL, same size on disk).
-- EXTERNAL keeps them out of line in TOAST without trying to compress. Prisma does not model
-- column storage, so `migrate diff` neither produces nor drops this.
ALTER TABLE "turns" ALTER COLUMN "prompt_ids" SET STORAGE EXTERNAL;
ALTER TABLE "turns" ALTER COLUMN "response_ids" SET STORAGE EXTERNAL;
ALTER TABLE "turns" ALTER COLUMN "logprobs" SET STORAGE EXTERNAL;
