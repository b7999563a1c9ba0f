import { FilterBar } from "@raas/ui/filter-bar";
import { FilterSelect } from "@raas/ui/filter-select";
import { SANDBOX_WINDOWS, type TSandboxFilters, type TSandboxWindow } from "./sandbox-filters.types";

const WINDOW_LABELS: Record<TSandboxWindow, string> = {
  "15m": "last 15 minutes",
  "1h": "last hour",
  "24h": "last 24 hours",
};

/** Worker and time window; every change lands in the URL. */
export function SandboxFilterBar({
  filters,
  workerIds,
  onChange,
}: {
  filters: TSandboxFilters;
  workerIds: readonly string[];
  onChange: (patch: Partial<TSandboxFilters>) => void;
}) {
  const hosts = filters.host && !workerIds.includes(filters.host) ? [...workerIds, filters.host] : workerIds;
  return (
    <FilterBar legend="Sandbox filters">
      <FilterSelect
        name="host"
        label="worker"
        anyLabel="all workers"
        value={filters.host}
        options={hosts}
        onChange={(host) => onChange({ host })}
      />
      <FilterSelect
        name="since"
        label="created in"
        anyLabel="all time"
        value={filters.since}
        options={(Object.keys(SANDBOX_WINDOWS) as TSandboxWindow[]).map((value) => ({
          value,
          label: WINDOW_LABELS[value],
        }))}
        onChange={(since) => onChange({ since: since as TSandboxWindow | undefined })}
      />
    </FilterBar>
  );
}
