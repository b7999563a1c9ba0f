import { createHash } from "node:crypto";
import type { Sandbox, SandboxRuntime, SandboxSpec, StageContext } from "@raas/engine";
import type { AgentInitOutput, SetupContext } from "./agent-handler.types";
import type { TAgentTaskBase } from "./agent-payload.schema";
import type { GroupTemplates, TemplateLease } from "./group-templates";
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
function groupTemplateKey(
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
 * once in its own sandbox, which the runtime keeps running for it once a pristine copy of the
 * workspace is taken as the template (no teardown, no second start); every other member starts
 * its own sandbox at once and fills it with a private copy of the template when it is ready. All
 * get the shared setup output, and each holds the template until its job ends. Failures keep
 * INIT's kinds: a sandbox that does not start and a setup that breaks are `sandbox`; `setup`'s
 * own stage failures pass through.
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
  /** The sandbox that ran the group's INIT, when this member ran it (kept running for it). */
  let kept: Sandbox | undefined;
  let isPreparer = false;
  let hasLeft = false;
  const leasing = input.templates.acquire(key, ctx.signal, async (signal) => {
    isPreparer = true;
    const { sandbox, ...prepared } = await asStageFailure(
      "sandbox",
      "preparing the group's workspace failed",
      signal,
      () =>
        runtime.prepareTemplate(
          { ...spec, jobId },
          (sandbox) =>
            asStageFailure("sandbox", "task setup failed", signal, () =>
              input.setup({ jobId, payload: ctx.payload, sandbox: guardSandbox(sandbox, signal), signal }),
            ),
          signal,
          { keepSandbox: true },
        ),
    );
    // The preparation outlives a member that left (others still wait for it): nobody takes its sandbox.
    if (sandbox && (hasLeft || kept)) await sandbox.close();
    else kept = sandbox;
    return prepared;
  });
  // `acquire` starts a preparation at once when the group has none: then this member's sandbox is
  // the one the INIT runs in. Any other member starts its own now, beside the group's INIT, and
  // takes its copy once the template is ready.
  const starting = isPreparer ? undefined : startFromTemplate(runtime, leasing, spec, ctx);
  let lease: Awaited<typeof leasing>;
  try {
    lease = await leasing;
  } catch (error) {
    hasLeft = true;
    await Promise.all([starting?.catch(() => undefined), kept?.close()]); // closed before INIT fails
    throw error;
  }
  ctx.deferToJobEnd(() => lease.release());
  // A member that started its own sandbox before a retried preparation fell to it uses that one.
  if (starting && kept) await kept.close();
  const sandbox = starting
    ? await starting
    : (kept ?? (await startFromTemplate(runtime, leasing, spec, ctx)));
  ctx.deferToJobEnd(() => sandbox.close());
  return { sandbox, setup: lease.value };
}

/** A member's own sandbox, filled with a copy of the group's template once it is ready. */
function startFromTemplate<P>(
  runtime: ForkingRuntime,
  leasing: Promise<TemplateLease<unknown>>,
  spec: Omit<SandboxSpec, "jobId">,
  ctx: StageContext<P>,
): Promise<Sandbox> {
  const starting = asStageFailure("sandbox", "starting the sandbox failed", ctx.signal, () =>
    runtime.createFrom(
      leasing.then((lease) => lease.template),
      { ...spec, jobId: ctx.job.id },
      ctx.signal,
    ),
  );
  starting.catch(() => undefined);
  return starting;
}
