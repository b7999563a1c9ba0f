"use client";

import { type FormEvent, useEffect, useState } from "react";

/** Text search on job id or key; applied on Enter or the button, not on every keystroke. */
export function SearchBox({
  value,
  onSearch,
}: {
  value: string | undefined;
  onSearch: (value: string | undefined) => void;
}) {
  const [draft, setDraft] = useState(value ?? "");
  useEffect(() => setDraft(value ?? ""), [value]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(draft.trim() || undefined);
  };

  return (
    <form className="filter search-box" onSubmit={submit}>
      <label>
        <span>id or key contains</span>
        <input type="search" name="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}
