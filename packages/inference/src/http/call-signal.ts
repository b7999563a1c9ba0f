/**
 * One HTTP call's abort signal: the caller's signal or the call's deadline, whichever comes first.
 * Built from one controller and one timer that `dispose` clears when the call ends — cheaper per
 * call than `AbortSignal.any([signal, AbortSignal.timeout(ms)])`, whose timer outlives the call
 * and whose composite is tracked by weak references (a generation makes one call, and a gateway
 * under load makes thousands a second).
 */
export class CallSignal {
  /** Aborts when the caller's signal does or the deadline passes; undefined when neither exists. */
  readonly signal: AbortSignal | undefined;
  private deadlinePassed = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort: (() => void) | undefined;

  constructor(
    private readonly caller: AbortSignal | undefined,
    /** Absolute deadline in epoch ms. */
    deadlineMs: number | undefined,
    now: () => number = Date.now,
  ) {
    if (deadlineMs === undefined) {
      this.signal = caller;
      return;
    }
    const controller = new AbortController();
    this.signal = controller.signal;
    if (caller?.aborted) {
      controller.abort(caller.reason);
      return;
    }
    if (caller) {
      this.onCallerAbort = () => controller.abort(caller.reason);
      caller.addEventListener("abort", this.onCallerAbort, { once: true });
    }
    const passDeadline = () => {
      this.deadlinePassed = true;
      controller.abort(new DOMException("the call's deadline passed", "TimeoutError"));
    };
    const remainingMs = deadlineMs - now();
    if (remainingMs <= 0) passDeadline();
    else {
      this.timer = setTimeout(passDeadline, remainingMs);
      this.timer.unref();
    }
  }

  /** True when the deadline, not the caller, stopped the call. */
  get isDeadlinePassed(): boolean {
    return this.deadlinePassed && !this.caller?.aborted;
  }

  /** The call ended: its timer and its listener on the caller's signal go. */
  dispose(): void {
    clearTimeout(this.timer);
    if (this.onCallerAbort) this.caller?.removeEventListener("abort", this.onCallerAbort);
  }
}
