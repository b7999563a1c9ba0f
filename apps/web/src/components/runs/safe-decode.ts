/** Route params may arrive percent-encoded; a stray `%` must not crash the page. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
