/** A labelled `<select>` whose first option means "any". */
export function FilterSelect({
  name,
  label,
  value,
  options,
  onChange,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (value: string | undefined) => void;
}) {
  return (
    <label className="filter">
      <span>{label}</span>
      <select name={name} value={value ?? ""} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">any</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}
