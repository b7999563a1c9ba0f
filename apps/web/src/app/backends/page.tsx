import { LoadingState } from "@raas/ui/loading-state";
import type { Metadata } from "next";
import { Suspense } from "react";
import { BackendsView } from "../../components/backends/backends-view";

export const metadata: Metadata = { title: "Backends" };

export default function BackendsPage() {
  return (
    <>
      <h1>Backends</h1>
      <Suspense fallback={<LoadingState title="Loading the inference backends…" />}>
        <BackendsView />
      </Suspense>
    </>
  );
}
