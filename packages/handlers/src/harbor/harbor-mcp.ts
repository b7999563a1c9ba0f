import type { TEnvironmentTools } from "../base/agent-payload.schema";
import { environmentTools } from "../base/environment-mcp";
import { HARBOR_WORKSPACE } from "./harbor-dockerfile";
import { agentPathMap, rewriteHarborPaths } from "./harbor-paths";
import type { THarborTask } from "./harbor-task.schema";

/**
 * The job payload's `mcp` for a task's `[[environment.mcp_servers]]` (undefined without any): the
 * servers' tools are offered beside the handler's (`add`). Each server runs inside the agent's
 * sandbox, where the task's workdir is `/workspace`, so its command, args and env have their
 * Harbor paths mapped as the environment's files are (`/app/server.py` → `/workspace/server.py`);
 * its script comes with `environment/`, copied into the workdir. Checked against the payload's
 * rules (names, sizes, unique), a failure naming `task.toml`. Only for a task the host can run,
 * whose servers are all stdio (a network one is a host incompatibility).
 */
export function harborTaskTools(
  dir: string,
  task: THarborTask,
  workdir: string,
): Promise<TEnvironmentTools | undefined> {
  if (task.config.mcpServers.length === 0) return Promise.resolve(undefined);
  const map = agentPathMap(workdir, HARBOR_WORKSPACE);
  const servers = task.config.mcpServers.map((server) => ({
    name: server.name,
    command: rewriteHarborPaths(server.command ?? "", map),
    args: server.args.map((arg) => rewriteHarborPaths(arg, map)),
    env: Object.fromEntries(
      Object.entries(server.env).map(([key, value]) => [key, rewriteHarborPaths(value, map)]),
    ),
  }));
  return environmentTools(dir, "task.toml", {
    toolsMode: "add",
    servers,
    serversPath: ["environment", "mcp_servers"],
  });
}
