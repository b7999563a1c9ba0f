/** Time windows the Sandboxes page offers, as they appear in the URL (`?since=1h`). */
export const SANDBOX_WINDOWS = {
  "15m": 15 * 60_000,
  "1h": 60 * 60_000,
  "24h": 24 * 60 * 60_000,
} as const;
export type TSandboxWindow = keyof typeof SANDBOX_WINDOWS;

/** The Sandboxes page's filters, exactly as in the query string; absent means "all". */
export interface TSandboxFilters {
  host?: string;
  since?: TSandboxWindow;
}

function isWindow(value: string | null): value is TSandboxWindow {
  return value !== null && Object.hasOwn(SANDBOX_WINDOWS, value);
}

/** Reads filters from a query string, dropping unknown or malformed values. */
export function parseSandboxFilters(params: URLSearchParams): TSandboxFilters {
  const filters: TSandboxFilters = {};
  const host = params.get("host")?.trim().slice(0, 300);
  const since = params.get("since");
  if (host) filters.host = host;
  if (isWindow(since)) filters.since = since;
  return filters;
}

/** The query string of a set of filters (empty values left out). */
export function sandboxFiltersQuery(filters: TSandboxFilters): string {
  const params = new URLSearchParams();
  if (filters.host) params.set("host", filters.host);
  if (filters.since) params.set("since", filters.since);
  const query = params.toString();
  return query.length > 0 ? `?${query}` : "";
}

/**
 * The `hostId`/`sinceMs` input shared by `sandboxes.summary` and `sandboxes.events`. `nowMs` is
 * coarse (it ticks every few seconds) so the query key, and with it the cache, stays put between ticks.
 */
export function sandboxQueryInput(
  filters: TSandboxFilters,
  nowMs: number,
): { hostId?: string; sinceMs?: number } {
  const input: { hostId?: string; sinceMs?: number } = {};
  if (filters.host) input.hostId = filters.host;
  if (filters.since) input.sinceMs = Math.max(0, nowMs - SANDBOX_WINDOWS[filters.since]);
  return input;
}
