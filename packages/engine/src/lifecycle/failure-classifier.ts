import {
  assertNever,
  failureOf,
  isStageFailureData,
  type TAbortCause,
  type TFailureKind,
  type TFailureLabel,
  type TStage,
} from "@raas/shared";

export interface ClassifiedFailure {
  kind: TFailureKind;
  message: string;
  /**
   * The stage failure's label (`tampered`), or `misconfigured` when its cause is `caller`: the
   * job's own configuration failed (an environment's MCP server that cannot start;
   * `callerConfigFailure`), so starting it again would fail the same way. Absent otherwise.
   */
  label?: TFailureLabel;
  /** The stage failure's report, to be stored as the job's `result`; absent when it gave none. */
  result?: unknown;
}

/** The reward of an `agent` failure when the handler sets no `failureReward`. */
export const DEFAULT_FAILURE_REWARD = 0;

/** The reward of a grade voided because its canaries lied, whatever the handler's `failureReward`. */
const TAMPERED_REWARD = 0;

/**
 * The reward a failed job is stored with. Who caused the failure decides: the policy's own
 * (`agent`) failures are trainable outcomes and get the handler's failure reward (default 0) —
 * except a `tampered` one, which is always 0: a handler may soften its failure reward for a
 * policy that, say, ran out of turns, but a forged grade must never earn anything. Infrastructure
 * failures, the caller's own configuration (`misconfigured`, kind `sandbox`), timeouts and cancels
 * get none (null), so a trainer can never mistake them for a policy that scored 0.
 */
export function failureRewardOf(
  kind: TFailureKind,
  handlerFailureReward: number | undefined,
  label: TFailureLabel | null = null,
): number | null {
  switch (kind) {
    case "agent":
      if (label === "tampered") return TAMPERED_REWARD;
      return handlerFailureReward ?? DEFAULT_FAILURE_REWARD;
    case "timeout":
    case "sandbox":
    case "inference":
    case "eval":
    case "cancelled":
      return null;
    default:
      return assertNever(kind, "failure kind");
  }
}

/** The failure kind an unexplained error gets in each stage: never `agent`, never trainable. */
function defaultFailureKind(stage: TStage): Exclude<TFailureKind, "agent" | "cancelled" | "timeout"> {
  switch (stage) {
    case "init":
      return "sandbox";
    case "run":
      return "sandbox";
    case "eval":
      return "eval";
    default:
      return assertNever(stage, "stage");
  }
}

/**
 * Whether a failed stage starts the job again from INIT (within its attempt budget) rather than
 * failing it: an infrastructure failure of the sandbox (`sandbox`: it would not start, its disk
 * filled under it, the host failed), at any stage — the worker's fault, not the task's or the
 * policy's. Another worker (or this one, recovered) may run it. What the policy did in a RUN or
 * EVAL so ended is thrown away, as when a worker is lost: an infrastructure-failed attempt's
 * trajectory is not trainable anyway. Every other kind fails as it is: `agent` is a trainable
 * outcome, `timeout` the task's budget, `eval` the grader's, `inference` already ridden out by
 * the inference pool. A `sandbox` failure caused by the caller's configuration (`misconfigured`:
 * an MCP server that cannot start) fails as it is too: every sandbox would meet it the same way.
 */
export function isRestartedFromInit(failure: Pick<ClassifiedFailure, "kind" | "label">): boolean {
  return failure.kind === "sandbox" && failure.label !== "misconfigured";
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
}

function abortMessage(cause: TAbortCause, stage: TStage, timeoutMs: number | null): string {
  switch (cause) {
    case "timeout":
      return `${stage} stage exceeded its time budget of ${timeoutMs ?? "?"} ms`;
    case "cancelled":
      return `cancelled during ${stage}`;
    case "shutdown":
      return `the server shut down during ${stage}`;
    case "preempted":
      return `preempted during ${stage} by higher-priority work`;
    default:
      return assertNever(cause, "abort cause");
  }
}

/**
 * Classifies why a stage ended without a result. The stage's own signal decides first (a
 * timeout or cancel wins over whatever error the handler threw while being aborted); then a
 * stage failure (`failureOf`) names its kind; anything else gets the stage's infrastructure kind.
 */
export function classifyFailure(input: {
  stage: TStage;
  error: unknown;
  signal: AbortSignal;
  timeoutMs: number | null;
}): ClassifiedFailure {
  const aborted = input.signal.aborted ? failureOf(input.signal.reason) : null;
  const cause = aborted?.kind === "aborted" ? aborted.abort : null;
  if (cause === "timeout")
    return { kind: "timeout", message: abortMessage(cause, input.stage, input.timeoutMs) };
  if (cause === "cancelled") return { kind: "cancelled", message: abortMessage(cause, input.stage, null) };
  // Preemption normally never reaches here (the executor re-queues the job); if it does, no reward.
  if (cause === "shutdown" || cause === "preempted")
    return { kind: "cancelled", message: abortMessage(cause, input.stage, null) };
  const failure = failureOf(input.error);
  if (isStageFailureData(failure)) {
    const { kind, message, result } = failure;
    // Who caused it is stored as a label where it matters downstream: a trainer must not re-run
    // a job its own configuration failed (the stored failure keeps no `cause`).
    const label = failure.cause === "caller" ? "misconfigured" : failure.label;
    return {
      kind,
      message,
      ...(label !== null ? { label } : {}),
      ...(result !== undefined ? { result } : {}),
    };
  }
  return { kind: defaultFailureKind(input.stage), message: messageOf(input.error) };
}
