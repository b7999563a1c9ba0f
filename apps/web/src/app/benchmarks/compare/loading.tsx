import { LoadingState } from "@raas/ui/loading-state";

export default function CompareLoading() {
  return <LoadingState title="Loading the comparison…" />;
}
