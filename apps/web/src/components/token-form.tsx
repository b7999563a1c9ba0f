"use client";

import { type FormEvent, useState } from "react";
import { writeToken } from "../token/token-store";
import { useToken } from "../token/use-token";
import { TokenStatus } from "./token-status";

/** Enter or forget the bearer token; it stays in this browser's localStorage only. */
export function TokenForm() {
  const token = useToken();
  const [draft, setDraft] = useState("");

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    writeToken(draft);
    setDraft("");
  };

  return (
    <form className="token-form" onSubmit={save} aria-label="Token">
      <TokenStatus />
      {token === null ? (
        <>
          <input
            type="password"
            name="token"
            placeholder="API token"
            aria-label="API token"
            autoComplete="off"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" disabled={draft.trim().length === 0}>
            Use token
          </button>
        </>
      ) : (
        <button type="button" onClick={() => writeToken(null)}>
          Forget token
        </button>
      )}
    </form>
  );
}
