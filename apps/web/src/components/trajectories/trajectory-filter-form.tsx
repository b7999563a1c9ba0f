"use client";

import { useId } from "react";
import { FAILURE_KINDS, JOB_STATUSES } from "../../lib/domain";
import styles from "./trajectories.module.css";
import { parseTrajectoryFilters, type TTrajectoryFilters } from "./trajectory-filters.types";

interface TFieldProps {
  name: keyof TTrajectoryFilters;
  label: string;
  value: string | number | undefined;
  placeholder?: string;
}

function TextField({ name, label, value, placeholder }: TFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} defaultValue={value ?? ""} placeholder={placeholder} />
    </div>
  );
}

function NumberField({ name, label, value }: TFieldProps) {
  const id = useId();
  return (
    <div className={`${styles.field} ${styles.narrow}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type="number" step="any" defaultValue={value ?? ""} />
    </div>
  );
}

function SelectField({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ""}>
        <option value="">any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Every filter of the trajectory browser in one form, applied together (text fields would
 * otherwise reload the list on every keystroke). Re-mounted by the caller when the URL changes.
 */
export function TrajectoryFilterForm({
  filters,
  runs,
  onApply,
}: {
  filters: TTrajectoryFilters;
  runs: ReadonlyArray<{ id: string; name: string }>;
  onApply: (filters: TTrajectoryFilters) => void;
}) {
  const runOptions = runs.map((run) => ({ value: run.id, label: run.name }));
  if (filters.runId && !runs.some((run) => run.id === filters.runId)) {
    runOptions.push({ value: filters.runId, label: filters.runId });
  }
  return (
    <form
      className={styles.form}
      aria-label="Filter trajectories"
      data-testid="trajectory-filters"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        onApply(parseTrajectoryFilters({ get: (name) => (form.get(name) as string | null) ?? null }));
      }}
    >
      <SelectField name="runId" label="Run" value={filters.runId} options={runOptions} />
      <TextField name="stepId" label="Step id" value={filters.stepId} placeholder="stp_…" />
      <TextField name="groupId" label="Group id" value={filters.groupId} placeholder="grp_…" />
      <TextField name="taskId" label="Task id" value={filters.taskId} />
      <TextField name="kind" label="Handler kind" value={filters.kind} placeholder="math, swe, …" />
      <SelectField
        name="status"
        label="Status"
        value={filters.status}
        options={JOB_STATUSES.map((status) => ({ value: status, label: status }))}
      />
      <SelectField
        name="failureKind"
        label="Failure kind"
        value={filters.failureKind}
        options={FAILURE_KINDS.map((kind) => ({ value: kind, label: kind }))}
      />
      <NumberField name="minReward" label="Reward ≥" value={filters.minReward} />
      <NumberField name="maxReward" label="Reward ≤" value={filters.maxReward} />
      <TextField name="search" label="Job id or key" value={filters.search} />
      <div className={styles.actions}>
        <button type="submit">Apply filters</button>
        <button type="button" onClick={() => onApply({})}>
          Clear
        </button>
      </div>
    </form>
  );
}
