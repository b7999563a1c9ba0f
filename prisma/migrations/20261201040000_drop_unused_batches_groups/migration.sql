-- The first batch model's tables (`batches`, `groups`) were never written after training runs,
-- steps and groups (`training_runs`, `training_steps`, `training_groups`) replaced them.
DROP TABLE IF EXISTS "groups";
DROP TABLE IF EXISTS "batches";
