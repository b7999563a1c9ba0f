-- A carried long shot that no step takes is let go once more of them wait than a step takes, so
-- the backlog of a long run stays bounded; the step that let it go is kept on the group.
ALTER TABLE "training_groups" ADD COLUMN "expired_in_step_id" TEXT;
