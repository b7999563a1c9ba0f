import { readFileSync } from "node:fs";
import type { EvalContext, HarnessSamplingPolicy, RunContext, StageContext, TaskHandler } from "@raas/engine";
import type { TGatewayCallRecord } from "@raas/shared";
import { stageFailure } from "@raas/shared";
import { z } from "zod";
import type { AgentHandlerDeps, AgentInitOutput, AgentRunOutput } from "../base/agent-handler.types";
import { ZAgentOverrides } from "../base/agent-payload.schema";
import { createSweHandlerFactory, type SweArtifacts, type SweHandlerConfig } from "../swe/swe-handler";
import { type TSwePayload, ZSwePayload } from "../swe/swe-payload.schema";
import { runHarnessStage } from "./harness-run";

/** The host side of a job's inference gateway, as a harness reaches it from its sandbox. */
export interface HarnessGateway {
  /**
   * Serves the job's gateway session on a Unix socket in `hostDir` (a directory the sandbox
   * shares) and returns the socket's file name and the API key the harness sends. Every call of
   * the session samples with `sampling`'s settings, whatever the harness sends.
   */
  openBridge(
    jobId: string,
    hostDir: string,
    sampling: HarnessSamplingPolicy,
  ): Promise<{ socketName: string; apiKey: string; close(): Promise<void> }>;
  /** The model calls the job made through the gateway, in arrival order. */
  listCalls(jobId: string): Promise<TGatewayCallRecord[]>;
}

/** Payload of a `harness` job: a swe task and the harness that solves it. */
const ZHarnessPayload = z
  .object({
    task: ZSwePayload.describe("The task, as a `swe` job's payload (INIT and EVAL are the swe handler's)."),
    command: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        "argv of the harness, run in the repository with OPENAI_BASE_URL, OPENAI_API_KEY and RAAS_TASK_FILE set. Default the shipped example: `python3 <dir>/swe_agent.py`.",
      ),
    files: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        "Files written into the harness directory (`/workspace/.raas-harness/`) before RUN, by name.",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(1_000)
      .max(3_600_000)
      .default(600_000)
      .describe("Time limit of the harness in ms (1_000 to 3_600_000). Default 600_000."),
    agent: ZAgentOverrides.optional().describe(
      "The job's sampling (`temperature`, `topP`, `topK`, `seed`; a step's `agent` lands here) and `harnessSampling`: every model call samples with these, not with what the harness sends (`override`, default) or a harness sending others is refused (`reject`). The loop limits do not apply (the harness runs its own loop).",
    ),
  })
  .strict()
  // Tool servers are offered by the built-in loop; a harness brings its own tools and would
  // silently run without them.
  .refine((payload) => payload.task.mcp === undefined, {
    message:
      "a harness job runs its own agent: `task.mcp` (tool servers for the built-in loop) is not supported",
    path: ["task", "mcp"],
  });
export type THarnessPayload = z.infer<typeof ZHarnessPayload>;

const EXAMPLE_HARNESS = readFileSync(new URL("../../harnesses/swe_agent.py", import.meta.url), "utf8");

type SweInit = AgentInitOutput<{ repoDir: string }>;
type SweRun = AgentRunOutput<SweArtifacts>;

/**
 * `harness`: bring your own agent. INIT prepares the swe task in a sandbox (the swe handler's
 * INIT); RUN starts the harness command inside it with the job's inference gateway — reached
 * over the sandbox's Unix-socket channel by the loopback forwarder, the harness gets only
 * `OPENAI_BASE_URL`/`OPENAI_API_KEY` — and a time limit, then takes the repository's diff; EVAL
 * grades it with the swe grader in a fresh sandbox. The model calls are recorded by the gateway
 * (the trajectory's traces and certificate) and stored as the job's turns (index = arrival order).
 */
export function createHarnessHandlerFactory(config: SweHandlerConfig & { gateway: HarnessGateway }) {
  const sweFactory = createSweHandlerFactory(config);
  return (deps: AgentHandlerDeps): TaskHandler<THarnessPayload, SweInit, SweRun> => {
    const swe = sweFactory(deps);
    const asSwe = <C extends { payload: THarnessPayload }>(ctx: C) => ({ ...ctx, payload: ctx.payload.task });
    return {
      kind: "harness",
      description:
        "A harness of your own (any OpenAI-API agent) solving a swe task through the inference gateway.",
      payloadSchema: ZHarnessPayload,
      resultSchema: swe.resultSchema,
      async init(ctx: StageContext<THarnessPayload>) {
        if (ctx.payload.task.modelPatch !== undefined) {
          throw stageFailure(
            "eval",
            "a harness job runs its harness: give no modelPatch (grade it with a swe job)",
          );
        }
        return (await swe.init(asSwe(ctx) as StageContext<TSwePayload>)) as SweInit;
      },
      run: (ctx: RunContext<THarnessPayload, SweInit>) =>
        runHarnessStage(config.gateway, deps, EXAMPLE_HARNESS, ctx),
      eval(ctx: EvalContext<THarnessPayload, SweInit, SweRun>) {
        return swe.eval({ ...ctx, payload: ctx.payload.task });
      },
    };
  };
}
