import type { TPolicyState } from "@raas/shared";

/**
 * Where a policy change takes effect: the inference pool of this process (gate the policy's
 * generation, stamp its backends with the version), the engine (hold the RUN budgets of the
 * policy's jobs) and, in distributed mode, a bus message that workers apply to theirs. Every state
 * names its policy; a sink applies it to that policy only.
 */
export interface PolicySink {
  applyPolicy(state: TPolicyState): void | Promise<void>;
}
