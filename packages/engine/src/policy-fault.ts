/** What the engine keeps of a policy fault. */
export interface PolicyFault {
  reason: string;
}

/** Reasons longer than this keep their head and tail (they end up in the job's failure message). */
export const MAX_POLICY_REASON_CHARS = 2_000;

/** How many `cause` links are followed: adapters and toolboxes may wrap the marked error. */
const MAX_CAUSE_DEPTH = 8;

/**
 * The policy fault an error carries, or null. Looks at the error and then along its `cause`
 * chain for `causedByPolicy === true` (exactly `true`: any other value is no mark). The reason is
 * `policyReason` when it is a non-empty string, else the marked error's message.
 */
export function policyFaultOf(error: unknown): PolicyFault | null {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth += 1) {
    if (typeof current !== "object" || current === null) return null;
    const marked = current as Partial<
      Record<"causedByPolicy" | "policyReason" | "message" | "cause", unknown>
    >;
    if (marked.causedByPolicy === true) return { reason: clip(reasonOf(marked)) };
    current = marked.cause;
  }
  return null;
}

function reasonOf(marked: Partial<Record<"policyReason" | "message", unknown>>): string {
  if (typeof marked.policyReason === "string" && marked.policyReason.trim() !== "")
    return marked.policyReason.trim();
  if (typeof marked.message === "string" && marked.message.trim() !== "") return marked.message.trim();
  return "the policy's own action ended the tool call";
}

function clip(reason: string): string {
  if (reason.length <= MAX_POLICY_REASON_CHARS) return reason;
  const half = Math.floor((MAX_POLICY_REASON_CHARS - 20) / 2);
  return `${reason.slice(0, half)} … [cut] … ${reason.slice(-half)}`;
}
