/**
 * Last-resort cleanup when the host process exits while sandboxes are open. Exit handlers
 * must be synchronous, so each registered sandbox supplies a synchronous kill-and-remove.
 * Signals are not trapped here (that is the application's decision); a host killed by a
 * signal still takes its bwrap sandboxes down through --die-with-parent, and the next
 * runtime start reaps the directories.
 */
const cleanups = new Set<() => void>();
let isInstalled = false;

export function registerExitCleanup(cleanup: () => void): () => void {
  if (!isInstalled) {
    isInstalled = true;
    process.once("exit", () => {
      for (const run of cleanups) {
        try {
          run();
        } catch {
          // Keep going: one failed cleanup must not leave the others undone.
        }
      }
    });
  }
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}
