export function nextBin(root: string): string;
export function hasWebBuild(root: string): boolean;
export function isWebBuildStale(root: string): boolean;
export function ensureWebBuild(
  root: string,
  options?: { force?: boolean; log?: (line: string) => void },
): boolean;
export function startWebBuild(
  root: string,
  options: { logPath: string },
): { done: Promise<boolean>; cancel: () => void };
export function webBuildLogTail(logPath: string, maxChars?: number): string;
