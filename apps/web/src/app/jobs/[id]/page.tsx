import type { Metadata } from "next";
import { JobDetailView } from "../../../components/job/job-detail-view";

interface JobPageProps {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: JobPageProps): Promise<Metadata> {
  const { id } = await params;
  return { title: `Job ${safeDecode(id)}` };
}

export default async function JobPage({ params }: JobPageProps) {
  const { id } = await params;
  return <JobDetailView id={safeDecode(id)} />;
}

/** Route params may arrive percent-encoded; a stray `%` must not crash the page. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
