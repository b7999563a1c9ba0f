/** Cursor pagination: forward with the server's cursor, back to the newest jobs at any time. */
export function Pagination({
  isFirstPage,
  nextCursor,
  onPage,
}: {
  isFirstPage: boolean;
  nextCursor: string | null;
  onPage: (cursor: string | undefined) => void;
}) {
  if (isFirstPage && nextCursor === null) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" disabled={isFirstPage} onClick={() => onPage(undefined)}>
        ← Newest jobs
      </button>
      <button type="button" disabled={nextCursor === null} onClick={() => onPage(nextCursor ?? undefined)}>
        Older jobs →
      </button>
    </nav>
  );
}
