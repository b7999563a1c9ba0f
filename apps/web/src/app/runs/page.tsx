import { StateMessage } from "@raas/ui/state-message";
import type { Metadata } from "next";
import { Suspense } from "react";
import { RunsView } from "../../components/runs/runs-view";

export const metadata: Metadata = { title: "Runs" };

export default function RunsPage() {
  return (
    <>
      <h1>Training runs</h1>
      <Suspense fallback={<StateMessage kind="loading" title="Loading training runs…" />}>
        <RunsView />
      </Suspense>
    </>
  );
}
