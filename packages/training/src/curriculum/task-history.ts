/**
 * Per-task attempt history (pure). An attempt is one finished trajectory of the task; it succeeds
 * when its reward is > 0. History is kept per run and across the runs of a dataset.
 */
export interface TaskHistory {
  taskId: string;
  attempts: number;
  successes: number;
  /** Outcomes of the last `RECENT_OUTCOMES_KEPT` attempts, oldest first: `1` success, `0` failure. */
  recent: string;
  /** Successes since the last failure. */
  solvedInARow: number;
  /** When its last outcome was recorded (ms since the epoch); null before the first. */
  lastAttemptAtMs: number | null;
}

/** Outcomes kept per task: the largest window (`windowSize`) a policy may ask for. */
export const RECENT_OUTCOMES_KEPT = 256;

export function emptyTaskHistory(taskId: string): TaskHistory {
  return { taskId, attempts: 0, successes: 0, recent: "", solvedInARow: 0, lastAttemptAtMs: null };
}

/** The outcome string of finished samples' rewards, in order: reward > 0 is a success. */
export function outcomesOf(rewards: readonly number[]): string {
  return rewards.map((reward) => (reward > 0 ? "1" : "0")).join("");
}

/** Successes at the end of an outcome string. */
export function trailingSuccesses(outcomes: string): number {
  let count = 0;
  for (let i = outcomes.length - 1; i >= 0 && outcomes[i] === "1"; i -= 1) count += 1;
  return count;
}

/** `history` with `outcomes` (oldest first) appended. Pure. */
export function withOutcomes(history: TaskHistory, outcomes: string, atMs: number): TaskHistory {
  if (outcomes.length === 0) return history;
  const successes = outcomes.replaceAll("0", "").length;
  const trailing = trailingSuccesses(outcomes);
  return {
    taskId: history.taskId,
    attempts: history.attempts + outcomes.length,
    successes: history.successes + successes,
    recent: (history.recent + outcomes).slice(-RECENT_OUTCOMES_KEPT),
    solvedInARow: trailing === outcomes.length ? history.solvedInARow + trailing : trailing,
    lastAttemptAtMs: Math.max(history.lastAttemptAtMs ?? atMs, atMs),
  };
}

/** Pass rate over the last `windowSize` attempts, or null with none. */
export function windowPassRate(history: TaskHistory | undefined, windowSize: number): number | null {
  const window = history?.recent.slice(-windowSize) ?? "";
  if (window.length === 0) return null;
  return window.replaceAll("0", "").length / window.length;
}
