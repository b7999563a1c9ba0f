/** localStorage key of the bearer token entered in the top bar. */
const TOKEN_STORAGE_KEY = "raas.token";

const listeners = new Set<() => void>();

/** The stored token, or null (also on the server, where there is no localStorage). */
export function readToken(): string | null {
  if (typeof window === "undefined") return null;
  const value = window.localStorage.getItem(TOKEN_STORAGE_KEY);
  return value && value.trim().length > 0 ? value.trim() : null;
}

/** Stores (or with null, forgets) the token and tells every subscriber. */
export function writeToken(token: string | null): void {
  const trimmed = token?.trim() ?? "";
  if (trimmed.length > 0) window.localStorage.setItem(TOKEN_STORAGE_KEY, trimmed);
  else window.localStorage.removeItem(TOKEN_STORAGE_KEY);
  for (const listener of listeners) listener();
}

/** For `useSyncExternalStore`: fires on local writes and on writes from other tabs. */
export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}
