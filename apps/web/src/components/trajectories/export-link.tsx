"use client";

import { type MouseEvent, useState } from "react";
import { readToken } from "../../token/token-store";
import { exportHref } from "./trajectory-links";

/** The export's error text: the dashboard route answers plain text (the server's sentence). */
async function failureOf(response: Response): Promise<string> {
  const text = (await response.text()).trim();
  return text === "" ? `the export failed (${response.status})` : text;
}

/**
 * "Export as JSONL". A plain link carries no header, so with a token entered (a server that needs
 * a viewer token refuses the plain link) the click fetches the export with `Authorization` and
 * saves the answer under the same name; without one it is an ordinary download link.
 */
export function ExportLink({ jobId }: { jobId: string }) {
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const href = exportHref(jobId);
  const fileName = `${jobId}.jsonl`;

  const onClick = async (event: MouseEvent<HTMLAnchorElement>) => {
    const token = readToken();
    if (token === null) return;
    event.preventDefault();
    setError(null);
    setIsSaving(true);
    try {
      const response = await fetch(href, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) {
        setError(await failureOf(response));
        return;
      }
      const url = URL.createObjectURL(await response.blob());
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = fileName;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (caught) {
      setError(`the export failed: ${caught instanceof Error ? caught.message : String(caught)}`);
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <>
      <a href={href} download={fileName} onClick={onClick} aria-busy={isSaving} data-testid="export-link">
        {isSaving ? "Exporting…" : "Export as JSONL"}
      </a>
      {error === null ? null : (
        <span role="alert" data-testid="export-error">
          {error}
        </span>
      )}
    </>
  );
}
