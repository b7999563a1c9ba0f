import type { TFailureKind, TFailureLabel } from "@raas/shared";

/**
 * Thrown by handlers (and adapters) to fail a stage with a specific kind. Who caused the failure
 * decides it: `agent` marks what the policy did — a bad tool call, context overflow, killing its
 * tools or the execution server, hitting a resource limit (processes, memory, CPU, disk, output,
 * the sandbox's wall time), a crash of the sandbox during its own tool call. An `agent` failure
 * is trainable and stored with the handler's `failureReward` (default 0) and this message as the
 * reason. Every other kind is infrastructure (sandbox creation, an unreachable backend, a host
 * error, a grader failing on a clean input, a sandbox dying while idle or during a handler's own
 * step): never trainable, reward null. `timeout` is for a handler's own step that ran out of its
 * time limit before the policy ran (a checkout or setup command in INIT): like a stage budget
 * running out, a slow host can cause it. See ARCHITECTURE.md, "Failure kinds".
 *
 * A grader that voids a grade throws `new StageFailure("agent", message, { label: "tampered",
 * result: report })`: trainable, reward 0, `failure.label` `tampered`, the report kept as `result`.
 */
export class StageFailure extends Error {
  override readonly name = "StageFailure";
  readonly kind: Exclude<TFailureKind, "cancelled">;
  /** What kind of policy failure this was (`tampered`); null when the kind says all. */
  readonly label: TFailureLabel | null;
  /** The handler's report, stored as the failed job's `result`; undefined: none (stored as null). */
  readonly result: unknown;

  constructor(kind: StageFailure["kind"], message: string, options?: StageFailureOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    // A label says what kind of policy failure it was; on an infrastructure kind it would call a
    // grade void that no one can train on. A handler bug, refused where it is made.
    if (options?.label !== undefined && kind !== "agent")
      throw new TypeError(`failure label "${options.label}" needs kind "agent", not "${kind}"`);
    this.kind = kind;
    this.label = options?.label ?? null;
    this.result = options?.result;
  }
}

export interface StageFailureOptions {
  /** The underlying error, kept as the `Error.cause`. */
  cause?: unknown;
  /**
   * What kind of policy failure this was, stored as `failure.label`. `tampered`: a grader's canary
   * tests reported a false outcome, so the grade is void. A labelled failure is the policy's: give
   * it with kind `agent` (trainable); its reward is always 0, whatever the handler's
   * `failureReward`. Default: none.
   */
  label?: TFailureLabel;
  /**
   * The handler's report of the failed stage (for `tampered`: the grader's report, naming the
   * canary that lied), stored as the failed job's `result` so a researcher sees what happened.
   * Must be JSON-serializable. Default: none (the job's `result` stays null).
   */
  result?: unknown;
}

export function isStageFailure(error: unknown): error is StageFailure {
  return error instanceof StageFailure;
}

/**
 * Runs `work` so that its errors carry a failure kind: an abort rethrows the signal's reason (so
 * cancel and timeout classify as such), a `StageFailure` passes through, anything else becomes a
 * `StageFailure(kind, "<what>: <message>")`.
 */
export async function asStageFailure<T>(
  kind: StageFailure["kind"],
  what: string,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (isStageFailure(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StageFailure(kind, `${what}: ${reason}`, { cause: error });
  }
}
