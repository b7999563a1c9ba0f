"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseWasteUnit, type TWasteUnit } from "../../lib/charts/run-waste";

/** Most runs overlaid at once (each adds a line per chart). */
const MAX_OVERLAID_RUNS = 8;

/** Run ids from `?runs=a,b`: trimmed, unique, at most `MAX_OVERLAID_RUNS`. */
function parseRunIds(value: string | null): string[] {
  const ids = (value ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id.length > 0 && id.length <= 200);
  return [...new Set(ids)].slice(0, MAX_OVERLAID_RUNS);
}

/** The runs picked for the overlay and the waste unit, both kept in the URL so a view can be shared. */
export function useRunSelection() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const runIds = useMemo(() => parseRunIds(searchParams.get("runs")), [searchParams]);
  const wasteUnit = parseWasteUnit(searchParams.get("waste"));

  const update = useCallback(
    (patch: { runIds?: string[]; wasteUnit?: TWasteUnit }) => {
      const params = new URLSearchParams(searchParams.toString());
      if (patch.runIds !== undefined) {
        if (patch.runIds.length > 0) params.set("runs", patch.runIds.join(","));
        else params.delete("runs");
      }
      if (patch.wasteUnit !== undefined) {
        if (patch.wasteUnit === "tokens") params.set("waste", "tokens");
        else params.delete("waste");
      }
      const query = params.toString();
      router.push(`${pathname}${query ? `?${query}` : ""}`, { scroll: false });
    },
    [pathname, router, searchParams],
  );

  return { runIds, wasteUnit, update };
}
