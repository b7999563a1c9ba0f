import { createHash } from "node:crypto";
import type { SandboxRuntime, SandboxSpec, StageContext } from "@raas/engine";
import type { AgentInitOutput, SetupContext } from "./agent-handler.types";
import type { TAgentTaskBase } from "./agent-payload.schema";
import type { GroupTemplates } from "./group-templates";
import { asStageFailure, guardSandbox } from "./infrastructure-guard";

/** A runtime that can prepare a template once and start sandboxes from copies of it. */
export type ForkingRuntime = SandboxRuntime &
  Required<Pick<SandboxRuntime, "prepareTemplate" | "createFrom">>;

export function canFork(runtime: SandboxRuntime): runtime is ForkingRuntime {
  return typeof runtime.prepareTemplate === "function" && typeof runtime.createFrom === "function";
}

/**
 * The template key of a group member: its group and everything its INIT depends on (the payload
 * without the agent-loop overrides, and the sandbox spec), so members whose tasks differ never
 * share a workspace.
 */
export function groupTemplateKey(
  kind: string,
  groupId: string,
  payload: TAgentTaskBase,
  spec: Omit<SandboxSpec, "jobId">,
): string {
  const { agent: _agent, ...task } = payload;
  const digest = createHash("sha256").update(JSON.stringify({ task, spec })).digest("hex");
  return `${kind}\u0000${groupId}\u0000${digest}`;
}

/**
 * INIT of a group member from its group's template: the first member to arrive runs `setup`
 * once in a template sandbox, every member (that one included) starts its own sandbox at once and
 * fills it with a private copy of the prepared workspace when it is ready, and gets the shared
 * setup output. The member holds the
 * template until its job ends. Failures keep INIT's kinds: a sandbox that does not start and a
 * setup that breaks are `sandbox`; `setup`'s own `StageFailure`s pass through.
 */
export async function initFromGroupTemplate<P extends TAgentTaskBase, S>(input: {
  runtime: ForkingRuntime;
  templates: GroupTemplates<S>;
  kind: string;
  groupId: string;
  ctx: StageContext<P>;
  spec: Omit<SandboxSpec, "jobId">;
  setup: (ctx: SetupContext<P>) => Promise<S>;
}): Promise<AgentInitOutput<S>> {
  const { runtime, ctx, spec } = input;
  const jobId = ctx.job.id;
  const key = groupTemplateKey(input.kind, input.groupId, ctx.payload, spec);
  const leasing = input.templates.acquire(key, ctx.signal, (signal) =>
    asStageFailure("sandbox", "preparing the group's workspace failed", signal, () =>
      runtime.prepareTemplate(
        { ...spec, jobId },
        (sandbox) =>
          asStageFailure("sandbox", "task setup failed", signal, () =>
            input.setup({ jobId, payload: ctx.payload, sandbox: guardSandbox(sandbox, signal), signal }),
          ),
        signal,
      ),
    ),
  );
  // The member's own sandbox starts now, beside the group's INIT, and takes its copy once it is ready.
  const starting = asStageFailure("sandbox", "starting the sandbox failed", ctx.signal, () =>
    runtime.createFrom(
      leasing.then((lease) => lease.template),
      { ...spec, jobId },
      ctx.signal,
    ),
  );
  starting.catch(() => undefined);
  let lease: Awaited<typeof leasing>;
  try {
    lease = await leasing;
  } catch (error) {
    await starting.catch(() => undefined); // its sandbox is closed before INIT fails
    throw error;
  }
  ctx.deferToJobEnd(() => lease.release());
  const sandbox = await starting;
  ctx.deferToJobEnd(() => sandbox.close());
  return { sandbox, setup: lease.value };
}
