import { FilterSelect } from "@raas/ui/filter-select";
import type { TWasteUnit } from "../../lib/charts/run-waste";

/** Rollout-seconds or generated tokens for the waste ledger charts. */
export function WasteUnitSelect({
  unit,
  onChange,
}: {
  unit: TWasteUnit;
  onChange: (unit: TWasteUnit) => void;
}) {
  return (
    <FilterSelect
      name="waste"
      label="Waste in"
      anyLabel="rollout-seconds"
      value={unit === "tokens" ? "tokens" : undefined}
      options={[{ value: "tokens", label: "generated tokens" }]}
      onChange={(value) => onChange(value === "tokens" ? "tokens" : "seconds")}
    />
  );
}
