import type { TFailureKind, TFailureLabel } from "./job-status";

/**
 * Who caused a failure. `policy`: the model's own action (trainable, see ARCHITECTURE.md "Failure
 * kinds"). `infrastructure`: a host, sandbox, backend, grader or RaaS itself. `caller`: whoever
 * sent the request or cancelled the job.
 */
export type TFailureCause = "policy" | "infrastructure" | "caller";

/**
 * What a request failed on, named by the domain; the API alone decides each code's HTTP status.
 * - `BAD_REQUEST`: the request could not be understood (bad JSON, bad content type).
 * - `VALIDATION_FAILED`: the request parsed but a field is missing or has the wrong type.
 * - `UNKNOWN_HANDLER_KIND`: a job names a handler kind that is not registered.
 * - `UNAUTHORIZED`: no token, or a token that matches no role.
 * - `FORBIDDEN`: the token is valid but its role may not do this.
 * - `NOT_FOUND`: the job, backend or route does not exist.
 * - `METHOD_NOT_ALLOWED`: the route exists but not with this method.
 * - `CONFLICT`: the request contradicts current state (e.g. a job key reused with another kind).
 * - `PAYLOAD_TOO_LARGE`: the request body exceeds the server's limit.
 * - `UNSUPPORTED_MEDIA_TYPE`: the body is not JSON.
 * - `TOO_MANY_REQUESTS`: admission control rejected the request; retry later.
 * - `UNAVAILABLE`: the service is shutting down or a dependency is down.
 * - `INTERNAL`: a bug in RaaS. Never used for a caller's mistake.
 */
export const REQUEST_CODES = [
  "BAD_REQUEST",
  "VALIDATION_FAILED",
  "UNKNOWN_HANDLER_KIND",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "TOO_MANY_REQUESTS",
  "UNAVAILABLE",
  "INTERNAL",
] as const;
export type TRequestCode = (typeof REQUEST_CODES)[number];

/** The failure kinds a stage can end with by a throw; `cancelled` comes from the engine's abort. */
export type TStageFailureKind = Exclude<TFailureKind, "cancelled">;

/** Why a sandbox operation failed; a stage that does not catch it fails as infrastructure. */
export type TSandboxFailureReason =
  | "start_failed"
  | "not_ready"
  | "crashed"
  | "closed"
  | "request_failed"
  | "forbidden"
  /** The disk holding the sandbox ran full during the call (infrastructure unless the policy filled it). */
  | "host_disk_full";

/**
 * Why an inference call failed.
 * - `connection`: no connection, or it broke before a response arrived (no token produced).
 * - `http-status`: the backend answered with a non-2xx status.
 * - `bad-response`: the body was not JSON or lacked a field we need (the message names it).
 * - `deadline`: the call's deadline passed.
 * - `aborted`: the caller aborted (job cancelled).
 * - `no-backend`: no backend can take traffic (none registered, all drained or circuits open).
 */
export type TInferenceFailureReason =
  | "connection"
  | "http-status"
  | "bad-response"
  | "deadline"
  | "aborted"
  | "no-backend";

/** What the backend did, on an `inference` stage failure the inference adapters throw. */
export interface InferenceFailureDetail {
  reason: TInferenceFailureReason;
  backendId: string | null;
  /** The backend's own HTTP status for `http-status` failures; null otherwise. */
  status: number | null;
}

/** Why an engine-controlled AbortSignal fired. `preempted`: the job goes back to its queue. */
export type TAbortCause = "cancelled" | "timeout" | "shutdown" | "preempted";

/**
 * A stage ended with a kind its thrower decided (a handler, an adapter, the agent loop): stored
 * as the job's `failure`. `agent` is the policy's (trainable, the handler's failure reward);
 * every other kind is not trainable (reward null): infrastructure, or — `cause: "caller"`, see
 * {@link callerConfigFailure} — the job's own configuration, which fails the same way on any
 * sandbox and so is never retried.
 */
export interface StageFailureData {
  kind: TStageFailureKind;
  cause: "policy" | "infrastructure" | "caller";
  message: string;
  /**
   * What more is known than the kind (`tampered`); null when the kind says all. The engine stores
   * a failure with cause `caller` as `misconfigured`, whatever this says.
   */
  label: TFailureLabel | null;
  /** The handler's report, stored as the failed job's `result`; undefined: none. */
  result?: unknown;
  /** On an `inference` failure from the inference adapters: what the backend did. */
  inference?: InferenceFailureDetail;
}

/**
 * A sandbox operation failed. Infrastructure unless the sandbox has evidence that the agent's
 * own tool call caused it (a limit it used up, a crash during its call): then `cause` is
 * `policy` and `policyReason` says what the policy did. Only the agent's tool calls honour that.
 */
export interface SandboxFailureData {
  kind: "sandbox-error";
  cause: "policy" | "infrastructure";
  reason: TSandboxFailureReason;
  message: string;
  policyReason?: string;
  details?: Record<string, unknown>;
}

/** The engine aborted a stage (the signal's reason); the stage's own outcome does not count. */
export interface AbortFailureData {
  kind: "aborted";
  cause: "caller" | "infrastructure";
  abort: TAbortCause;
  message: string;
}

/** A request (an API call, an engine or store operation) could not be served. */
export interface RequestFailureData {
  kind: "request";
  cause: "caller" | "infrastructure";
  code: TRequestCode;
  message: string;
  /** Structured detail safe to show to the caller (never a stack). */
  details?: Record<string, unknown>;
}

/** The one failure model: plain data, carried by a {@link FailureError} and read by {@link failureOf}. */
export type Failure = StageFailureData | SandboxFailureData | AbortFailureData | RequestFailureData;

/** The one Error that carries a {@link Failure}; its `cause` (the Error's) is the underlying error. */
export class FailureError<F extends Failure = Failure> extends Error {
  override readonly name = "FailureError";
  readonly failure: F;

  constructor(failure: F, options?: { cause?: unknown }) {
    super(failure.message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.failure = failure;
  }
}

/** How many `cause` links are followed: adapters and toolboxes may wrap the failed error. */
const MAX_CAUSE_DEPTH = 8;

/**
 * The failure an error carries: its own, else the nearest along its `cause` chain (adapters and
 * toolboxes wrap errors), or null. With `cause`, the nearest failure with that cause: who caused
 * it decides, so a policy failure under an infrastructure wrapper is still found.
 */
export function failureOf(error: unknown, cause?: TFailureCause): Failure | null {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth += 1) {
    if (typeof current !== "object" || current === null) return null;
    if (current instanceof FailureError && (cause === undefined || current.failure.cause === cause))
      return current.failure;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** True for a failure that names the kind its stage ends with. */
export function isStageFailureData(failure: Failure | null): failure is StageFailureData {
  return failure !== null && STAGE_FAILURE_KINDS.has(failure.kind);
}

const STAGE_FAILURE_KINDS: ReadonlySet<Failure["kind"]> = new Set<TStageFailureKind>([
  "timeout",
  "sandbox",
  "inference",
  "eval",
  "agent",
]);

export interface StageFailureOptions {
  /** The underlying error, kept as the Error's `cause`. */
  cause?: unknown;
  /**
   * What kind of policy failure this was, stored as `failure.label`. `tampered`: a grader's canary
   * tests reported a false outcome, so the grade is void. Only with kind `agent`; its reward is
   * always 0, whatever the handler's `failureReward`. Default: none. (`misconfigured` is not given
   * here: the engine sets it on a {@link callerConfigFailure}.)
   */
  label?: Exclude<TFailureLabel, "misconfigured">;
  /**
   * The handler's report of the failed stage (for `tampered`: the grader's report), stored as the
   * failed job's `result`. Must be JSON-serializable. Default: none (the job's `result` stays null).
   */
  result?: unknown;
}

/**
 * Fails a stage with `kind`; who caused it follows from the kind (`agent`: the policy). A grader
 * that voids a grade throws `stageFailure("agent", message, { label: "tampered", result })`.
 */
export function stageFailure(
  kind: TStageFailureKind,
  message: string,
  options?: StageFailureOptions,
): FailureError<StageFailureData> {
  // A label says what kind of policy failure it was; on an infrastructure kind it would call a
  // grade void that no one can train on. A handler bug, refused where it is made.
  if (options?.label !== undefined && kind !== "agent")
    throw new TypeError(`failure label "${options.label}" needs kind "agent", not "${kind}"`);
  // The caller's configuration is never the policy's: that failure is `callerConfigFailure`.
  if ((options?.label as TFailureLabel | undefined) === "misconfigured")
    throw new TypeError('failure label "misconfigured" comes from callerConfigFailure, not stageFailure');
  const failure: StageFailureData = {
    kind,
    cause: kind === "agent" ? "policy" : "infrastructure",
    message,
    label: options?.label ?? null,
    ...(options?.result !== undefined ? { result: options.result } : {}),
  };
  return new FailureError(failure, { cause: options?.cause });
}

/** The stage fails as the policy's own doing (`agent`): trainable, the handler's failure reward. */
export function policyFailure(
  message: string,
  options?: StageFailureOptions,
): FailureError<StageFailureData> {
  return stageFailure("agent", message, options);
}

/**
 * The stage fails on the configuration the caller sent, not on the host: an environment's MCP
 * server whose command does not exist, that exits before its handshake, or that answers it with
 * a protocol error. Stored as kind `sandbox` (where it happened), label `misconfigured` (the
 * engine sets it for cause `caller`): reward null (never the policy's), never started again from
 * INIT (it would fail the same way anywhere), and never re-run by a training step.
 */
export function callerConfigFailure(
  message: string,
  options?: Pick<StageFailureOptions, "cause" | "result">,
): FailureError<StageFailureData> {
  const failure: StageFailureData = {
    kind: "sandbox",
    cause: "caller",
    message,
    label: null,
    ...(options?.result !== undefined ? { result: options.result } : {}),
  };
  return new FailureError(failure, { cause: options?.cause });
}

const INFRASTRUCTURE_CODES: ReadonlySet<TRequestCode> = new Set([
  "TOO_MANY_REQUESTS",
  "UNAVAILABLE",
  "INTERNAL",
]);

/** A request could not be served; `code` says why (the API maps it to a status). */
export function requestFailure(
  code: TRequestCode,
  message: string,
  options?: { details?: Record<string, unknown>; cause?: unknown },
): FailureError<RequestFailureData> {
  const failure: RequestFailureData = {
    kind: "request",
    cause: INFRASTRUCTURE_CODES.has(code) ? "infrastructure" : "caller",
    code,
    message,
    ...(options?.details ? { details: options.details } : {}),
  };
  return new FailureError(failure, { cause: options?.cause });
}

/** A sandbox operation failed, as infrastructure (see {@link blamePolicy}). */
export function sandboxFailure(
  reason: TSandboxFailureReason,
  message: string,
  options?: { details?: Record<string, unknown>; cause?: unknown },
): FailureError<SandboxFailureData> {
  const failure: SandboxFailureData = {
    kind: "sandbox-error",
    cause: "infrastructure",
    reason,
    message,
    ...(options?.details ? { details: options.details } : {}),
  };
  return new FailureError(failure, { cause: options?.cause });
}

/** Reasons longer than this keep their head and tail (they end up in the job's failure message). */
export const MAX_POLICY_REASON_CHARS = 2_000;

/**
 * The sandbox failure `error` as caused by the agent's own tool call, with `policyReason` saying
 * what the policy did, clipped to {@link MAX_POLICY_REASON_CHARS} (same message and cause; a new
 * error, the data stays immutable).
 */
export function blamePolicy(
  error: FailureError<SandboxFailureData>,
  policyReason: string,
): FailureError<SandboxFailureData> {
  const blamed = new FailureError(
    { ...error.failure, cause: "policy", policyReason: clip(policyReason.trim() || error.message) },
    { cause: error.cause },
  );
  if (error.stack !== undefined) blamed.stack = error.stack;
  return blamed;
}

function clip(reason: string): string {
  if (reason.length <= MAX_POLICY_REASON_CHARS) return reason;
  const half = Math.floor((MAX_POLICY_REASON_CHARS - 20) / 2);
  return `${reason.slice(0, half)} … [cut] … ${reason.slice(-half)}`;
}

/** The engine's abort of a stage, to give as an AbortController's reason. */
export function abortFailure(abort: TAbortCause, message: string): FailureError<AbortFailureData> {
  return new FailureError({
    kind: "aborted",
    cause: abort === "cancelled" ? "caller" : "infrastructure",
    abort,
    message,
  });
}
