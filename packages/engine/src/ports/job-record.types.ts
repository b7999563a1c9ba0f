import type { TJob } from "@raas/shared";

/** The engine's view of a job: the same shape the API serves. */
export type JobRecord = TJob;

/** A partial update of a stored job; `id` selects it. */
export type JobPatch = Pick<JobRecord, "id"> & Partial<Omit<JobRecord, "id" | "createdAtMs">>;
