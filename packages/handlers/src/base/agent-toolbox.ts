import type { AgentToolbox, RunContext } from "@raas/engine";
import { stageFailure } from "@raas/shared";
import type { AgentInitOutput } from "./agent-handler.types";
import type { AgentHandlerBinding } from "./agent-handler-binding";
import type { TAgentTaskBase } from "./agent-payload.schema";
import { asStageFailure } from "./infrastructure-guard";
import { createSandboxToolbox } from "./sandbox-toolbox";
import { joinServerTools } from "./server-toolbox";

/** Time the job's tool servers get to start, handshake and list their tools, in ms. */
const SERVER_START_TIMEOUT_MS = 60_000;

/**
 * The RUN toolbox: the handler's sandbox tools, joined with the tool servers the payload declares
 * (`mcp`), started now in the job's sandbox and stopped when RUN ends. A server that does not
 * start, or offers a tool whose name is taken, fails the job as `sandbox` (never the policy's):
 * retried when the host may be at fault (no answer in time, a crash after the handshake), not
 * when the environment's configuration is (a missing command, an exit or a protocol error before
 * the handshake, a name taken: cause `caller`).
 */
export async function openAgentToolbox<P extends TAgentTaskBase, S, A>(
  { deps, tools }: AgentHandlerBinding<P, S, A>,
  ctx: RunContext<P, AgentInitOutput<S>>,
): Promise<AgentToolbox> {
  const { sandbox } = ctx.init;
  const handlerToolbox = createSandboxToolbox(sandbox, tools);
  const declared = ctx.payload.mcp;
  if (!declared) return handlerToolbox;
  const provider = deps.toolServers;
  if (!provider)
    throw stageFailure("sandbox", "the job declares MCP servers, but this deployment runs no tool servers");
  const session = await asStageFailure("sandbox", "starting the MCP servers failed", ctx.signal, () =>
    provider.open(sandbox, declared.servers, { signal: ctx.signal, timeoutMs: SERVER_START_TIMEOUT_MS }),
  );
  ctx.defer(() => session.close());
  return joinServerTools(handlerToolbox, session, declared.toolsMode);
}
