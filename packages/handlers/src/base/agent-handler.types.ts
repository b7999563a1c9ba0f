import type {
  AgentEvent,
  AgentLoopLimits,
  AgentLoopResult,
  AgentStopReason,
  ChatFormat,
  ChatToolCall,
  EvalOutcome,
  InferencePool,
  SamplingParams,
  Sandbox,
  SandboxLimits,
  SandboxRuntime,
  SandboxSpec,
  ToolServerProvider,
  ToolSpec,
} from "@raas/engine";
import type { DriftViolation } from "@raas/shared";
import type { z } from "zod";
import type { TAgentTaskBase } from "./agent-payload.schema";
import type { GroupTemplateOptions } from "./group-templates";

/** Defaults every agent handler applies unless the handler or the job payload overrides them. */
export interface AgentDefaults {
  /** Agent-loop limits (see `AgentLoopLimits` for units and defaults). */
  limits?: AgentLoopLimits;
  /** Sampling of every turn. Default: the backend's defaults. */
  sampling?: Omit<SamplingParams, "maxTokens" | "stopTokenIds">;
  /** Thinking block on (Qwen3 `enable_thinking`). Default true. */
  enableThinking?: boolean;
  /** Limits of every sandbox (merged under a handler's own). Default: the runtime's defaults. */
  sandboxLimits?: SandboxLimits;
  /**
   * INIT once per group for handlers that `shareSetupInGroup`, where the runtime can fork
   * (`prepareTemplate` + `createFrom`): how long templates are kept, or `false` for an INIT per
   * member. Default on, with `GroupTemplateOptions`' defaults.
   */
  groupFork?: GroupTemplateOptions | false;
}

/** What every agent handler needs; built once by the composition root. */
export interface AgentHandlerDeps {
  sandboxRuntime: SandboxRuntime;
  inference: InferencePool;
  chatFormat: ChatFormat;
  defaults?: AgentDefaults;
  /** Starts the tool servers a job declares (`mcp` in its payload); without it such jobs fail (sandbox). */
  toolServers?: ToolServerProvider;
}

/** Handed to `setup` in INIT, after the sandbox is up. */
export interface SetupContext<P> {
  jobId: string;
  payload: P;
  /** The job's sandbox; errors from it fail the stage as `sandbox`. */
  sandbox: Sandbox;
  signal: AbortSignal;
}

/** A summary of the RUN stage (stored in the job result under `agent`). */
export interface AgentRunSummary {
  stopReason: AgentStopReason;
  stopMessage: string;
  turns: number;
  toolCalls: number;
  responseTokens: number;
  /** Visible content of the last response. */
  finalContent: string;
  submission: ChatToolCall | null;
  events: AgentEvent[];
  durationMs: number;
}

/** The token-in/token-out check over the trajectory (violations mean the ids drifted). */
export interface TokenDriftSummary {
  isConsistent: boolean;
  turnsChecked: number;
  violations: DriftViolation[];
}

/** Handed to `collect` at the end of RUN, before the RUN sandbox closes. */
export interface CollectContext<P, S> {
  jobId: string;
  payload: P;
  setup: S;
  sandbox: Sandbox;
  loop: AgentLoopResult;
  signal: AbortSignal;
}

/** What a job brings for its sandboxes beyond its task. */
export interface JobSandboxDefaults {
  /** The payload's `image`, else its run's default image (`metadata.defaultImage`); undefined: neither. */
  image?: string;
}

/** Handed to `evaluate` in EVAL. */
export interface EvaluateContext<P, S, A> {
  jobId: string;
  payload: P;
  setup: S;
  run: AgentRunSummary;
  /** What `collect` returned (e.g. a solution file, a diff). */
  artifacts: A;
  /** The RUN sandbox when `keepSandboxForEval` is set, else null (it was closed after RUN). */
  runSandbox: Sandbox | null;
  /**
   * Starts a fresh sandbox, closed when EVAL ends; its errors fail the stage as `sandbox`. Without
   * an `image` it runs on the job's (`defaults.image`).
   */
  openSandbox(spec?: Omit<SandboxSpec, "jobId">): Promise<Sandbox>;
  /** What the job brings for its sandboxes (its image). */
  defaults: JobSandboxDefaults;
  signal: AbortSignal;
}

/** A task-type plug-in built on the agent loop. See the package README. */
export interface AgentHandlerDefinition<P extends TAgentTaskBase, S = undefined, A = undefined> {
  kind: string;
  description: string;
  /** Validates the job payload; extend `ZAgentTaskBase`. */
  payloadSchema: z.ZodType<P>;
  /**
   * The shape of the handler's own part of the job result (what `evaluate` returns as `result`);
   * `agent` and `tokenDrift` are added to it. Documents the result in the OpenAPI document.
   */
  resultSchema?: z.ZodObject;
  /** Sandbox tools offered to the model, by name (from the runtime's `toolSpecs`). */
  tools: readonly string[];
  /** The finish tool offered to the model; null offers none. Default `SUBMIT_TOOL_SPEC`. */
  submitTool?: ToolSpec | null;
  /** A response without a tool call ends the trajectory. Default true. */
  endOnTextResponse?: boolean;
  /** Handler defaults of the loop limits (under the job's overrides, over the deps' defaults). */
  limits?: AgentLoopLimits;
  /**
   * The INIT sandbox (files, env, image, limits). Default: an empty workspace. An `image` it
   * names (the task's own) wins; without one the sandbox runs on `defaults.image`, the job's
   * (see {@link JobSandboxDefaults}).
   */
  sandbox?(payload: P, defaults: JobSandboxDefaults): Omit<SandboxSpec, "jobId">;
  /**
   * The task's own image, read cheaply from the payload (the `image` `sandbox()` names): before
   * INIT the job's queue item carries it, else the job's (`defaults.image`), for image-aware
   * placement. Default: the task names none.
   */
  imageOf?(payload: P): string | undefined;
  /** INIT work after the sandbox is up (materialize the task); its result reaches `evaluate`. */
  setup?(ctx: SetupContext<P>): Promise<S>;
  /**
   * `setup` depends on the payload only (not on the job id), so the members of a group (jobs with
   * one `groupId` and the same payload) may share one INIT: it runs once per group and each member
   * starts from a private copy of its workspace (`AgentDefaults.groupFork`). Default false.
   */
  shareSetupInGroup?: boolean;
  systemPrompt(payload: P): string;
  userMessage(payload: P): string;
  /**
   * Where an agent other than the built-in loop (a harness) works, as an absolute path in the
   * sandbox: e.g. the repository `setup` checked out. Default `/workspace`.
   */
  harnessCwd?(payload: P, setup: S): string;
  /** End-of-RUN work in the RUN sandbox (e.g. read the solution file, take the diff). */
  collect?(ctx: CollectContext<P, S>): Promise<A>;
  /** Computes the reward. Throw `stageFailure('eval')` when grading itself is impossible. */
  evaluate(ctx: EvaluateContext<P, S, A>): Promise<EvalOutcome>;
  /** Keep the RUN sandbox open until the job ends so `evaluate` can use it. Default false. */
  keepSandboxForEval?: boolean;
  /** Stop reasons that fail the job as `agent` (trainable, no EVAL). Default `["context_exhausted"]`. */
  failOn?: readonly AgentStopReason[];
  /**
   * The reward of a job that fails as `agent`: a `failOn` stop, or a tool call the sandbox marks as
   * the policy's fault (killed the execution server, hit a resource limit). A finite number; default 0
   * (the engine's `DEFAULT_FAILURE_REWARD`). Infrastructure failures never get a reward.
   */
  failureReward?: number;
}

/** INIT's output. */
export interface AgentInitOutput<S> {
  sandbox: Sandbox;
  setup: S;
}

/** RUN's output. */
export interface AgentRunOutput<A> {
  summary: AgentRunSummary;
  artifacts: A;
  drift: TokenDriftSummary;
}
