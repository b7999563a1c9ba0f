import type { Sandbox, SandboxRuntime, SandboxSpec, ToolSpec } from "@raas/engine";
import type { AgentDefaults, AgentHandlerDefinition, AgentHandlerDeps } from "./agent-handler.types";
import type { TAgentTaskBase } from "./agent-payload.schema";
import { canFork } from "./group-init";
import { GroupTemplates } from "./group-templates";
import { asStageFailure } from "./infrastructure-guard";
import { SUBMIT_TOOL_SPEC } from "./submit-tool";

/** A handler definition bound to its dependencies: what its three stages share. */
export interface AgentHandlerBinding<P extends TAgentTaskBase, S, A> {
  readonly definition: AgentHandlerDefinition<P, S, A>;
  readonly deps: AgentHandlerDeps;
  readonly defaults: AgentDefaults;
  /** The sandbox runtime's specs of the definition's tools, plus its submit tool. */
  readonly tools: ToolSpec[];
  /** Loop stops that fail the job as `agent`. */
  readonly failOn: ReadonlySet<string>;
  /** INIT once per group (see `shareSetupInGroup`); templates are the runtime's, removed by closeAll. */
  readonly templates: GroupTemplates<S> | undefined;
}

export function bindAgentHandler<P extends TAgentTaskBase, S, A>(
  definition: AgentHandlerDefinition<P, S, A>,
  deps: AgentHandlerDeps,
): AgentHandlerBinding<P, S, A> {
  const tools = resolveTools(definition, deps.sandboxRuntime);
  const defaults: AgentDefaults = deps.defaults ?? {};
  const templates =
    definition.shareSetupInGroup && defaults.groupFork !== false && canFork(deps.sandboxRuntime)
      ? new GroupTemplates<S>(defaults.groupFork ?? {})
      : undefined;
  return {
    definition,
    deps,
    defaults,
    tools,
    failOn: new Set(definition.failOn ?? ["context_exhausted"]),
    templates,
  };
}

/** Starts a sandbox for the job under the defaults' limits; a failure is a `sandbox` stage failure. */
export async function openAgentSandbox(
  { deps, defaults }: Pick<AgentHandlerBinding<TAgentTaskBase, unknown, unknown>, "deps" | "defaults">,
  jobId: string,
  spec: Omit<SandboxSpec, "jobId">,
  signal: AbortSignal,
): Promise<Sandbox> {
  const limits = { ...defaults.sandboxLimits, ...spec.limits };
  return asStageFailure("sandbox", "starting the sandbox failed", signal, () =>
    deps.sandboxRuntime.create({ ...spec, jobId, limits }, signal),
  );
}

function resolveTools(
  definition: Pick<AgentHandlerDefinition<TAgentTaskBase>, "kind" | "tools" | "submitTool">,
  runtime: SandboxRuntime,
): ToolSpec[] {
  const served = new Map((runtime.toolSpecs ?? []).map((spec) => [spec.name, spec]));
  const tools = definition.tools.map((name) => {
    const spec = served.get(name);
    if (!spec) {
      throw new Error(
        `handler "${definition.kind}" needs tool "${name}", which sandbox runtime "${runtime.name}" does not serve (it serves: ${[...served.keys()].join(", ") || "none"})`,
      );
    }
    return spec;
  });
  const submit = definition.submitTool === undefined ? SUBMIT_TOOL_SPEC : definition.submitTool;
  return submit ? [...tools, submit] : tools;
}
