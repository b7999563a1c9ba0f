"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseJobFilters, type TJobFilters, toQueryString } from "./job-filters.types";

/** Filters kept in the URL: reading them, and changing them (which goes back to page one). */
export function useJobFilters() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo(
    () => parseJobFilters(new URLSearchParams(searchParams.toString())),
    [searchParams],
  );

  const setFilters = useCallback(
    (patch: Partial<TJobFilters>) => {
      const next: TJobFilters = { ...filters, ...patch };
      if (!("cursor" in patch)) delete next.cursor;
      router.push(`${pathname}${toQueryString(next)}`, { scroll: false });
    },
    [filters, pathname, router],
  );

  return { filters, setFilters };
}
