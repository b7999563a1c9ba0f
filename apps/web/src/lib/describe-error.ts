import { isTRPCClientError } from "@trpc/client";

/** What went wrong and what the user can do about it, from any error a tRPC call throws. */
export function describeError(error: unknown): { title: string; hint: string } {
  if (!isTRPCClientError(error)) {
    return {
      title: error instanceof Error ? error.message : String(error),
      hint: "Reload the page to try again.",
    };
  }
  const code = (error.data as { code?: string } | undefined)?.code;
  switch (code) {
    case "UNAVAILABLE":
      return { title: error.message, hint: "The dashboard retries on its own once the server is back." };
    case "UNAUTHORIZED":
      return { title: error.message, hint: "Enter a valid token in the box at the top right." };
    case "FORBIDDEN":
      return { title: error.message, hint: "Use a token with a stronger role (the admin token)." };
    case "NOT_FOUND":
      return { title: error.message, hint: "Check the id, or go back to the job list." };
    default:
      return {
        title: error.message,
        hint: "Reload the page to try again; if it persists, check the server's log.",
      };
  }
}
