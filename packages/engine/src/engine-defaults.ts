/**
 * How long `RolloutEngine.stop()` lets running stages finish before it aborts them, in ms. The
 * server's `RAAS_SHUTDOWN_GRACE_MS` defaults to it.
 */
export const DEFAULT_STOP_GRACE_MS = 10_000;

/**
 * How often, in ms, an engine holding sandboxes between stages asks the store whether their jobs
 * ended in another process (a cancel whose bus message was lost), and closes those sandboxes.
 */
export const DEFAULT_HELD_SANDBOX_SWEEP_MS = 30_000;
