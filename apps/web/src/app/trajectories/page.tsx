import { StateMessage } from "@raas/ui/state-message";
import type { Metadata } from "next";
import { Suspense } from "react";
import { TrajectoriesView } from "../../components/trajectories/trajectories-view";

export const metadata: Metadata = { title: "Trajectories" };

export default function TrajectoriesPage() {
  return (
    <>
      <h1>Trajectories</h1>
      <Suspense fallback={<StateMessage kind="loading" title="Loading trajectories…" />}>
        <TrajectoriesView />
      </Suspense>
    </>
  );
}
