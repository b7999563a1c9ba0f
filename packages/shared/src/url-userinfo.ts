/**
 * Backend URLs are shown to tokenless readers (`backends.list`) and written to logs, so they
 * must never carry credentials. These helpers find and hide the `user:password@` part.
 */

/** The authority (`user:password@host:port`) of an absolute URL, or null when there is none. */
function authorityOf(url: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url.trim());
  return match ? (match[1] ?? "") : null;
}

/** True when the URL names a user or password before its host (`http://user:pw@host`). */
export function hasUrlUserinfo(url: string): boolean {
  return authorityOf(url)?.includes("@") ?? false;
}

/** The text with every URL's `user:password@` replaced by `***@`, for messages and logs. */
export function redactUrlUserinfo(text: string): string {
  // Quotes end the search: in a JSON log line the next string may hold an unrelated "@".
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#\s@"']*@/gi, "$1***@");
}

/** The sentence a caller sees when a backend URL carries credentials (never the URL itself). */
export const URL_USERINFO_MESSAGE =
  "the URL may not carry a user name or password (user:password@host): backend URLs are shown to readers and logged; put credentials-free URLs here";
