import { StateMessage } from "@raas/ui/state-message";
import type { Metadata } from "next";
import { Suspense } from "react";
import { RunDetailView } from "../../../components/runs/run-detail-view";
import { safeDecode } from "../../../components/runs/safe-decode";

interface RunPageProps {
  params: Promise<{ runId: string }>;
}

export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  const { runId } = await params;
  return { title: `Run ${safeDecode(runId)}` };
}

export default async function RunPage({ params }: RunPageProps) {
  const { runId } = await params;
  return (
    <Suspense fallback={<StateMessage kind="loading" title="Loading the run…" />}>
      <RunDetailView runId={safeDecode(runId)} />
    </Suspense>
  );
}
