import { LoadingState } from "@raas/ui/loading-state";
import type { Metadata } from "next";
import { Suspense } from "react";
import { SandboxesView } from "../../components/sandboxes/sandboxes-view";

export const metadata: Metadata = { title: "Sandboxes" };

export default function SandboxesPage() {
  return (
    <>
      <h1>Sandboxes</h1>
      <Suspense fallback={<LoadingState title="Loading sandbox health…" />}>
        <SandboxesView />
      </Suspense>
    </>
  );
}
