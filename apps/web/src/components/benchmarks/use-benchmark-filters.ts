"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

/** The run list's filters, kept in the URL (`?model=…&dataset=…`) so a filtered list can be shared. */
export interface TBenchmarkFilters {
  model?: string | undefined;
  dataset?: string | undefined;
}

export function useBenchmarkFilters() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo<TBenchmarkFilters>(
    () => ({
      model: searchParams.get("model") || undefined,
      dataset: searchParams.get("dataset") || undefined,
    }),
    [searchParams],
  );
  const setFilters = useCallback(
    (patch: TBenchmarkFilters) => {
      const next = new URLSearchParams(searchParams.toString());
      for (const [name, value] of Object.entries(patch)) {
        if (value === undefined) next.delete(name);
        else next.set(name, value);
      }
      const query = next.toString();
      router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [pathname, router, searchParams],
  );
  return { filters, setFilters };
}
