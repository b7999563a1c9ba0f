import { useId } from "react";
import styles from "./filter-bar.module.css";

/** One choice of a filter: the value in the URL and, optionally, a friendlier label. */
export interface TFilterOption {
  value: string;
  label?: string;
}

/** A labelled `<select>` whose first option (`anyLabel`) means "no filter". */
export function FilterSelect({
  name,
  label,
  value,
  options,
  onChange,
  anyLabel = "any",
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: ReadonlyArray<string | TFilterOption>;
  onChange: (value: string | undefined) => void;
  anyLabel?: string;
}) {
  const id = useId();
  return (
    <div className={styles.filter}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">{anyLabel}</option>
        {options.map((option) => {
          const { value: optionValue, label: optionLabel } =
            typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={optionValue} value={optionValue}>
              {optionLabel ?? optionValue}
            </option>
          );
        })}
      </select>
    </div>
  );
}
