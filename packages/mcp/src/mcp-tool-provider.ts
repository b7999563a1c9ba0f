import type {
  Sandbox,
  ToolServerEnd,
  ToolServerProvider,
  ToolServerSession,
  ToolServerSpec,
  ToolSpec,
} from "@raas/engine";
import { callerConfigFailure } from "@raas/shared";
import { type CallBounds, McpServerConnection } from "./mcp-server-connection";

/**
 * Tool servers spoken to over MCP (stdio, inside the job's sandbox) with the official SDK's
 * client. Each server's tools are offered under their own names; two servers offering one name
 * is the environment's mistake (`callerConfigFailure`: not retried), refused before the agent starts.
 */
export function createMcpToolProvider(): ToolServerProvider {
  return { protocol: "mcp", open: openMcpSession };
}

async function openMcpSession(
  sandbox: Sandbox,
  servers: readonly ToolServerSpec[],
  bounds: CallBounds,
): Promise<ToolServerSession> {
  const connections: McpServerConnection[] = [];
  const specs: ToolSpec[] = [];
  const serverOf = new Map<string, string>();
  const byServer = new Map<string, McpServerConnection>();
  try {
    for (const server of servers) {
      const { connection, tools } = await McpServerConnection.start(sandbox, server, bounds);
      connections.push(connection);
      byServer.set(server.name, connection);
      for (const tool of tools) {
        const other = serverOf.get(tool.name);
        if (other !== undefined)
          throw callerConfigFailure(
            `MCP servers "${other}" and "${server.name}" both offer a tool named "${tool.name}"; tool names must be unique`,
          );
        serverOf.set(tool.name, server.name);
        specs.push(tool);
      }
    }
  } catch (error) {
    await Promise.all(connections.map((connection) => connection.close()));
    throw error;
  }
  const connectionOf = (tool: string): McpServerConnection => {
    const server = serverOf.get(tool);
    const connection = server === undefined ? undefined : byServer.get(server);
    if (!connection) throw new Error(`no MCP server offers a tool named "${tool}"`);
    return connection;
  };
  return {
    specs,
    serverOf,
    call: (name, args, options) => connectionOf(name).call(name, args, options),
    async findEnded(options): Promise<ToolServerEnd | null> {
      const ends = await Promise.all(connections.map((connection) => connection.findEnd(options)));
      return ends.find((end) => end !== null) ?? null;
    },
    async close() {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
