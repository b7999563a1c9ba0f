-- A gateway call's answer that did not honour the request's `tool_choice` (issue 15): recorded on
-- the call so the certificate lists it after a restart too. Existing rows had none.
-- AlterTable
ALTER TABLE "gateway_calls" ADD COLUMN     "tool_choice_violation" JSONB;
