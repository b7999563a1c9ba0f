/**
 * `indexOf` for one marker over one text, remembering the last answer: callers that search from
 * increasing positions (a parser's cursor) scan the text once in total, so a response full of
 * unclosed openers stays linear instead of quadratic.
 */
export function createMarkerFinder(text: string, marker: string): (from: number) => number {
  let cachedFrom = -1;
  let cachedAt = -1;
  return (from) => {
    if (cachedFrom !== -1 && from >= cachedFrom && (cachedAt === -1 || cachedAt >= from)) return cachedAt;
    cachedFrom = from;
    cachedAt = text.indexOf(marker, from);
    return cachedAt;
  };
}
