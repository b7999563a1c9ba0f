-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "failure_label" TEXT;

-- CreateIndex
CREATE INDEX "jobs_failure_label_id_idx" ON "jobs"("failure_label", "id");
