import type { Metadata } from "next";
import { safeDecode } from "../../../../../components/runs/safe-decode";
import { StepDetailView } from "../../../../../components/runs/step-detail-view";

interface StepPageProps {
  params: Promise<{ runId: string; stepId: string }>;
}

export async function generateMetadata({ params }: StepPageProps): Promise<Metadata> {
  const { stepId } = await params;
  return { title: `Step ${safeDecode(stepId)}` };
}

export default async function StepPage({ params }: StepPageProps) {
  const { runId, stepId } = await params;
  return <StepDetailView runId={safeDecode(runId)} stepId={safeDecode(stepId)} />;
}
