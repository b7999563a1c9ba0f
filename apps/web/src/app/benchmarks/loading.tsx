import { LoadingState } from "@raas/ui/loading-state";

export default function BenchmarksLoading() {
  return <LoadingState title="Loading benchmark runs…" />;
}
