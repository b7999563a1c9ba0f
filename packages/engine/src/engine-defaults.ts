/**
 * How long `RolloutEngine.stop()` lets running stages finish before it aborts them, in ms. The
 * server's `RAAS_SHUTDOWN_GRACE_MS` defaults to it.
 */
export const DEFAULT_STOP_GRACE_MS = 10_000;
