import type { AgentToolbox, ToolServerEnd, ToolServerSession, ToolSpec } from "@raas/engine";
import { blamePolicy, callerConfigFailure, sandboxFailure } from "@raas/shared";
import type { TEnvironmentTools } from "./agent-payload.schema";

/** How long a server may take to answer the liveness ping around a built-in call, in ms. */
const LIVENESS_TIMEOUT_MS = 10_000;

/** Names the loop treats as finish tools: a server may never offer them. */
const FINISH_NAMES: ReadonlySet<string> = new Set(["submit", "finish"]);

/**
 * The tools offered to the model: the handler's (unless `only`), the servers', then the finish
 * tool. A server tool named like one of those is the environment's mistake (not retried).
 */
function offeredSpecs(
  handlerTools: readonly ToolSpec[],
  session: ToolServerSession,
  mode: TEnvironmentTools["toolsMode"],
): ToolSpec[] {
  const finish = handlerTools.filter((spec) => FINISH_NAMES.has(spec.name));
  const builtin = mode === "add" ? handlerTools.filter((spec) => !FINISH_NAMES.has(spec.name)) : [];
  const taken = new Map([...builtin, ...finish].map((spec) => [spec.name, "the handler's built-in"]));
  for (const name of FINISH_NAMES) if (!taken.has(name)) taken.set(name, "the loop's finish");
  for (const spec of session.specs) {
    const owner = taken.get(spec.name);
    if (owner !== undefined)
      throw callerConfigFailure(
        `MCP server "${session.serverOf.get(spec.name)}" offers a tool named "${spec.name}", which is ${owner} tool of that name; rename the server's tool${owner.includes("built-in") ? ', or set toolsMode "only"' : ""}`,
      );
  }
  return [...builtin, ...session.specs, ...finish];
}

/**
 * The handler's toolbox joined with the job's tool servers (`mcp` in the payload). Who caused a
 * server's end decides its failure (ARCHITECTURE.md, "Failure kinds"):
 * - the server runs out of the agent's reach (its own jail where the runtime has one), so a
 *   server that ends during a call to it, or between calls, is infrastructure (`sandbox`): a
 *   server must answer any arguments, with an error result if need be;
 * - a server found ended right after one of the agent's own built-in calls (bash, python,
 *   editor), and alive right before it, ended during that call: the only other code running was
 *   the policy's (which reaches the server's process where there is no jail, and the files and
 *   limits it shares everywhere), so it is the policy's doing (`agent`);
 * - the sandbox going first keeps the sandbox's own blame (a limit the agent used up).
 */
export function joinServerTools(
  handler: AgentToolbox,
  session: ToolServerSession,
  mode: TEnvironmentTools["toolsMode"],
): AgentToolbox {
  const specs = offeredSpecs(handler.specs, session, mode);
  return {
    specs,
    async call(name, args, options) {
      if (session.serverOf.has(name)) return session.call(name, args, options);
      const bounds = { signal: options.signal, timeoutMs: LIVENESS_TIMEOUT_MS };
      const before = await session.findEnded(bounds);
      if (before) throw endError(before, `before the agent's ${name} call`);
      const result = await handler.call(name, args, options);
      const after = await session.findEnded(bounds);
      if (after) throw endError(after, `during the agent's ${name} call`, name);
      return result;
    },
  };
}

/** A server's end as the loop's failure; `byPolicyCall` names the agent's call that ended it. */
function endError(end: ToolServerEnd, when: string, byPolicyCall?: string): unknown {
  if (end.sandboxError !== undefined) return end.sandboxError;
  const error = sandboxFailure("crashed", `${end.message} (${when})`);
  return byPolicyCall === undefined
    ? error
    : blamePolicy(error, `MCP server "${end.server}" ended during the agent's own ${byPolicyCall} call`);
}
