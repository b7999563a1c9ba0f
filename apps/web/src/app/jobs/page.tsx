import { StateMessage } from "@raas/ui/state-message";
import type { Metadata } from "next";
import { Suspense } from "react";
import { JobsView } from "../../components/jobs/jobs-view";

export const metadata: Metadata = { title: "Jobs" };

export default function JobsPage() {
  return (
    <>
      <h1>Jobs</h1>
      <Suspense fallback={<StateMessage kind="loading" title="Loading jobs…" />}>
        <JobsView />
      </Suspense>
    </>
  );
}
