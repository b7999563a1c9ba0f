-- A gateway call may be stored on a base, an earlier call of its job: its prompt then begins with
-- `base_prompt_tokens` ids of the base's prompt ids followed by its response ids (`prompt_ids` holds
-- the rest), its request with `base_messages` of the base's messages (`messages` holds the rest),
-- and with `base_tools` its tools are the base's. `base_prompt_hash` is the FNV-1a hash of the
-- repeated ids (as for turns' prompt deltas): a base that is not what the row was stored on is
-- found when read. A conversation of n calls then stores O(n) ids and
-- messages, not O(n²): every call's prompt holds all earlier turns. Rows stored before keep
-- `base_seq` null and are complete.
ALTER TABLE "gateway_calls" ADD COLUMN "base_seq" INTEGER;
ALTER TABLE "gateway_calls" ADD COLUMN "base_prompt_tokens" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "gateway_calls" ADD COLUMN "base_messages" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "gateway_calls" ADD COLUMN "base_tools" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "gateway_calls" ADD COLUMN "base_prompt_hash" INTEGER;
