"use client";

import type { TFailureKind, TFailureLabel, TJobStatus, TStage } from "@raas/shared";
import { FilterSelect } from "@raas/ui/filter-select";
import { useQuery } from "@tanstack/react-query";
import { FAILURE_KINDS, FAILURE_LABELS, JOB_STATUSES, STAGES } from "../../lib/domain";
import { useTRPC } from "../../trpc/trpc-context";
import type { TJobFilters } from "./job-filters.types";
import { SearchBox } from "./search-box";

/** The filter bar of the Jobs page; every change lands in the URL. */
export function JobFilters({
  filters,
  onChange,
}: {
  filters: TJobFilters;
  onChange: (patch: Partial<TJobFilters>) => void;
}) {
  const trpc = useTRPC();
  const health = useQuery(trpc.system.health.queryOptions(undefined, { staleTime: 60_000 }));
  const kinds = health.data?.handlerKinds ?? [];
  const kindOptions = filters.kind && !kinds.includes(filters.kind) ? [...kinds, filters.kind] : kinds;
  const hasFilters = Object.keys(filters).some((key) => key !== "cursor");

  return (
    <fieldset className="filters">
      <legend className="sr-only">Job filters</legend>
      <FilterSelect
        name="status"
        label="status"
        value={filters.status}
        options={JOB_STATUSES}
        onChange={(value) => onChange({ status: value as TJobStatus | undefined })}
      />
      <FilterSelect
        name="stage"
        label="stage"
        value={filters.stage}
        options={STAGES}
        onChange={(value) => onChange({ stage: value as TStage | undefined })}
      />
      <FilterSelect
        name="kind"
        label="handler kind"
        value={filters.kind}
        options={kindOptions}
        onChange={(value) => onChange({ kind: value })}
      />
      <FilterSelect
        name="failureKind"
        label="failure kind"
        value={filters.failureKind}
        options={FAILURE_KINDS}
        onChange={(value) => onChange({ failureKind: value as TFailureKind | undefined })}
      />
      <FilterSelect
        name="failureLabel"
        label="failure label"
        value={filters.failureLabel}
        options={FAILURE_LABELS}
        onChange={(value) => onChange({ failureLabel: value as TFailureLabel | undefined })}
      />
      <SearchBox value={filters.search} onSearch={(search) => onChange({ search })} />
      {hasFilters ? (
        <button
          type="button"
          className="link-button"
          onClick={() =>
            onChange({
              status: undefined,
              stage: undefined,
              kind: undefined,
              failureKind: undefined,
              failureLabel: undefined,
              search: undefined,
            })
          }
        >
          Clear filters
        </button>
      ) : null}
    </fieldset>
  );
}
