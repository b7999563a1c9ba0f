import type { Clock } from "../ports/clock.port";
import type { TrajectoryRecorder } from "../ports/task-handler.port";
import type { StoreWriter } from "./store-writer";

/** The recorder handed to a stage: stamps job id and time, writes through the group commit. */
export function createRecorder(jobId: string, writer: StoreWriter, clock: Clock): TrajectoryRecorder {
  return {
    turn: (turn) => writer.turn({ ...turn, jobId, createdAtMs: clock.now() }),
    toolCall: (call) => writer.toolCall({ ...call, jobId, createdAtMs: clock.now() }),
    sandboxEvent: (event) => writer.sandboxEvent({ ...event, jobId }),
  };
}
