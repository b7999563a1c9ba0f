import { isTRPCClientError } from "@trpc/client";

/**
 * React Query retry policy: retry once, and only what may heal by itself (network trouble,
 * 5xx). A 4xx (bad token, missing job, bad filter) will not change by asking again.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (!isTRPCClientError(error)) return true;
  const httpStatus = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  return httpStatus === undefined || httpStatus >= 500;
}
