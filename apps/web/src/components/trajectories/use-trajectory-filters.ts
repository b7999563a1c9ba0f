"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import {
  parseTrajectoryFilters,
  type TTrajectoryFilters,
  toTrajectoryQuery,
} from "./trajectory-filters.types";

/** Filters kept in the URL: reading them, and replacing them (a new filter goes back to page one). */
export function useTrajectoryFilters() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo(
    () => parseTrajectoryFilters(new URLSearchParams(searchParams.toString())),
    [searchParams],
  );
  const setFilters = useCallback(
    (next: TTrajectoryFilters) => router.push(`${pathname}${toTrajectoryQuery(next)}`, { scroll: false }),
    [pathname, router],
  );
  return { filters, setFilters };
}
