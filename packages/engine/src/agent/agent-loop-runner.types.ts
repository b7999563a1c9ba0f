import type { Sandbox } from "../ports/sandbox-runtime.port";
import type { TrajectoryRecorder } from "../ports/task-handler.port";
import type { AgentLoopResult } from "./agent-loop.types";

/** What a task kind hands to whoever plays its agent: its prompts, its INIT sandbox, where to work. */
export interface AgentLoopRequest {
  jobId: string;
  /** The job's INIT sandbox (the kind closes it when RUN ends, or keeps it for EVAL). */
  sandbox: Sandbox;
  systemPrompt: string;
  userMessage: string;
  /** Absolute working directory of the task inside the sandbox (a repository, `/workspace`). */
  cwd: string;
  /** Where the trajectory's turns go (`ctx.record`). */
  recorder: TrajectoryRecorder;
  signal: AbortSignal;
}

/**
 * Plays the agent's part of a RUN in place of the built-in agent loop (e.g. a harness of the
 * caller's own): INIT, the kind's end-of-RUN `collect` and EVAL stay the kind's.
 */
export interface AgentLoopRunner {
  run(request: AgentLoopRequest): Promise<AgentLoopResult>;
  /**
   * Whether RUN checks token drift over the returned turns. False when another record certifies
   * the tokens (a harness's gateway calls, with their trace certificate): drift reports 0 turns
   * checked.
   */
  readonly checksDrift: boolean;
}
