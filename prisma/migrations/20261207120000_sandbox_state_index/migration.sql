-- Recovery closes the records a dead worker left open: it looks up the hosts with open records
-- (state starting/ready/busy/closing, few among many closed ones) and each host's open records.
CREATE INDEX "sandboxes_state_host_id_idx" ON "sandboxes"("state", "host_id");
