import type { AgentToolbox, Sandbox, ToolSpec } from "@raas/engine";

/** A toolbox whose tools run in `sandbox`; finish tools among `specs` are handled by the loop. */
export function createSandboxToolbox(sandbox: Sandbox, specs: readonly ToolSpec[]): AgentToolbox {
  return {
    specs,
    call: (name, args, options) => sandbox.runTool(name, args, options),
  };
}
