-- The trainer owns the sampling distribution: every turn and gateway call keeps the sampling
-- parameters it was generated with (`{ temperature, topP, topK, seed, maxTokens }`, the job's,
-- never a harness's), and a gateway call the harness's own sampling fields that were overridden.
-- Rows stored before keep null.
ALTER TABLE "turns" ADD COLUMN "sampling" JSONB;
ALTER TABLE "gateway_calls" ADD COLUMN "sampling" JSONB;
ALTER TABLE "gateway_calls" ADD COLUMN "overridden_sampling" JSONB;
