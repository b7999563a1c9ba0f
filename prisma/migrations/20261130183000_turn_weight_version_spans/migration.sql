-- Per-token weight versions of a turn continued across an abort-and-continue weight sync; null
-- when one version made the whole turn (every existing row).
-- AlterTable
ALTER TABLE "turns" ADD COLUMN "weight_version_spans" JSONB;
