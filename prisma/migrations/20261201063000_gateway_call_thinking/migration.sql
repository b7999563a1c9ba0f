-- Each gateway call keeps whether its prompt was rendered with thinking on, so a gateway process
-- that starts while a job runs can rebuild the job's chains from the store and continue them.
ALTER TABLE "gateway_calls" ADD COLUMN "enable_thinking" BOOLEAN;
