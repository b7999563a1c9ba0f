import { createHash } from "node:crypto";
import type { TSubmitJobRequest } from "@raas/shared";

/**
 * Gives every request without a `jobKey` one derived from the file's content, the request's
 * line (or array position), the request as sent (so `--kind` counts) and an optional salt:
 * `cli-<40 hex>`. Submitting the same file again —
 * a retry after a crash, a lost connection or Ctrl-C — sends the same keys, so the server returns
 * the jobs it already has instead of running them twice. Two identical lines stay two jobs
 * (their lines differ). Any change to the file gives new keys, and so does a new `salt`
 * (`--key-salt`), which is how the same file is submitted again on purpose.
 * Deterministic rather than random-and-saved: nothing to store, and a retry from another
 * machine or directory still matches.
 */
export function withJobKeys(
  requests: readonly TSubmitJobRequest[],
  positions: readonly number[],
  text: string,
  salt = "",
): TSubmitJobRequest[] {
  const fileHash = createHash("sha256").update(text).digest("hex");
  return requests.map((request, index) => {
    if (request.jobKey !== undefined && request.jobKey !== null) return request;
    const digest = createHash("sha256")
      .update(`${fileHash}\n${positions[index] ?? index + 1}\n${salt}\n${JSON.stringify(request)}`)
      .digest("hex");
    return { ...request, jobKey: `cli-${digest.slice(0, 40)}` };
  });
}
