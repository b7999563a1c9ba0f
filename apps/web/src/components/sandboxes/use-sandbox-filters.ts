"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseSandboxFilters, sandboxFiltersQuery, type TSandboxFilters } from "./sandbox-filters.types";

/** The Sandboxes page's filters, kept in the URL so a view can be shared. */
export function useSandboxFilters() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo(
    () => parseSandboxFilters(new URLSearchParams(searchParams.toString())),
    [searchParams],
  );
  const setFilters = useCallback(
    (patch: Partial<TSandboxFilters>) => {
      router.push(`${pathname}${sandboxFiltersQuery({ ...filters, ...patch })}`, { scroll: false });
    },
    [filters, pathname, router],
  );
  return { filters, setFilters };
}
