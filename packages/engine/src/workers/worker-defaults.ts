/** How often a worker heartbeats, in ms. */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 3_000;
/** How often the server looks for silent workers, in ms. */
export const DEFAULT_MONITOR_INTERVAL_MS = 3_000;
/** A worker whose last heartbeat is older than this (about three missed beats) is lost, in ms. */
export const DEFAULT_MISSED_AFTER_MS = 3 * DEFAULT_HEARTBEAT_INTERVAL_MS;
