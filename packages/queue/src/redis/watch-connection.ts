import type { Redis } from "ioredis";

/**
 * Reports a connection's errors, and its loss and return once each (ioredis retries on its own
 * every few hundred ms; one line per outage is what an operator needs, not one per attempt).
 * `onRestored` runs once per outage, after the return is reported.
 */
export function watchConnection(
  connection: Redis,
  role: string,
  report: (message: string, error?: unknown) => void,
  onRestored?: () => void,
): void {
  let isDown = false;
  connection.on("error", (error: Error) => {
    if (!isDown) report(`redis ${role}: ${error.message}`, error);
  });
  connection.on("reconnecting", () => {
    if (isDown) return;
    isDown = true;
    report(`redis ${role}: connection lost, reconnecting`);
  });
  connection.on("ready", () => {
    if (!isDown) return;
    isDown = false;
    report(`redis ${role}: connection restored`);
    onRestored?.();
  });
}
