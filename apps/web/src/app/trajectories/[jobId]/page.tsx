import type { Metadata } from "next";
import { safeDecode } from "../../../components/runs/safe-decode";
import { TrajectoryDetailView } from "../../../components/trajectories/trajectory-detail-view";

interface TrajectoryPageProps {
  params: Promise<{ jobId: string }>;
}

export async function generateMetadata({ params }: TrajectoryPageProps): Promise<Metadata> {
  const { jobId } = await params;
  return { title: `Trajectory ${safeDecode(jobId)}` };
}

export default async function TrajectoryPage({ params }: TrajectoryPageProps) {
  const { jobId } = await params;
  return <TrajectoryDetailView jobId={safeDecode(jobId)} />;
}
