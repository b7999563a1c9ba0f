import { basename, join } from "node:path";
import { formatIssues } from "@raas/shared";
import { type TEnvironmentTools, ZEnvironmentTools } from "./agent-payload.schema";
import { invalidFile, readEnvFile } from "./environment-files";
import type { TEnvMcpServer, TEnvMcpTable } from "./environment-manifest.schema";

/** What an environment declares of its MCP servers, in whichever manifest it wrote them. */
export interface DeclaredMcpServers {
  toolsMode: "add" | "only";
  servers: readonly TEnvMcpServer[];
  /** Where the manifest holds the servers, for messages. Default `["mcp", "servers"]` (the `[mcp]` table). */
  serversPath?: readonly PropertyKey[];
}

/**
 * The payload's `mcp` for the servers an environment declares in `manifest` (a file of `dir`, for
 * messages): each `source` file's text appended to its server's `args`, the whole checked against
 * the job payload's own rules (names, sizes, unique) so a bad declaration is refused when the
 * environment is loaded, naming the manifest, not when a job starts.
 */
export async function environmentTools(
  dir: string,
  manifest: string,
  declared: DeclaredMcpServers,
): Promise<TEnvironmentTools> {
  const servers = [];
  for (const server of declared.servers) {
    const source = server.source
      ? await readEnvFile(dir, server.source, `the source of MCP server "${server.name}"`)
      : null;
    servers.push({
      name: server.name,
      command: server.command,
      args: source === null ? server.args : [...server.args, source],
      env: server.env,
    });
  }
  const parsed = ZEnvironmentTools.safeParse({ toolsMode: declared.toolsMode, servers });
  if (!parsed.success) {
    const at = declared.serversPath ?? ["mcp", "servers"];
    const issues = parsed.error.issues.map((issue) => ({
      ...issue,
      path: issue.path[0] === "servers" ? [...at, ...issue.path.slice(1)] : ["mcp", ...issue.path],
    }));
    throw invalidFile(join(basename(dir), manifest), formatIssues(issues));
  }
  return parsed.data;
}

/** The payload's `mcp` for a dataset environment's `[mcp]` table (see `environmentTools`); none without one. */
export function manifestTools(
  dir: string,
  manifest: string,
  table: TEnvMcpTable,
): Promise<TEnvironmentTools | undefined> {
  if (table === undefined) return Promise.resolve(undefined);
  return environmentTools(dir, manifest, { toolsMode: table.tools_mode, servers: table.servers });
}
