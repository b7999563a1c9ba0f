import type { TTokenBreak } from "@raas/shared";
import { findTokenBreak, type TokenCheckTurn } from "../export/token-break";
import type { Clock } from "../ports/clock.port";
import type { TrajectoryRecorder } from "../ports/task-handler.port";
import type { StoreWriter } from "./store-writer";

/**
 * The recorder handed to a stage: stamps job id and time, writes through the group commit. Each
 * turn is checked against the one before as it is stored (token-in/token-out); the first break of
 * a trajectory is reported once to `onTokenBreak`, so a drifting loop is seen while it runs, not
 * only when the trajectory is exported.
 */
export function createRecorder(
  jobId: string,
  writer: StoreWriter,
  clock: Clock,
  onTokenBreak?: (tokenBreak: TTokenBreak) => void,
): TrajectoryRecorder {
  let previous: TokenCheckTurn | null = null;
  let broken = false;
  return {
    turn: (turn) => {
      if (!broken) {
        const tokenBreak = findTokenBreak(previous, turn);
        if (tokenBreak) {
          broken = true;
          onTokenBreak?.(tokenBreak);
        }
        previous = turn;
      }
      writer.turn({ ...turn, jobId, createdAtMs: clock.now() });
    },
    toolCall: (call) => writer.toolCall({ ...call, jobId, createdAtMs: clock.now() }),
    sandboxEvent: (event) => writer.sandboxEvent({ ...event, jobId }),
    teacherScore: (score) => writer.teacherScore({ ...score, jobId, createdAtMs: clock.now() }),
  };
}
