// A Harbor task's `[[environment.mcp_servers]]`: stdio servers become the job payload's `mcp`
// (paths mapped into the sandbox), network servers make the task one that cannot run here, and a
// malformed entry fails loading with task.toml and the field named.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZHarborPayload } from "../../src/harbor/harbor-task.schema";
import { harborJobRequest, loadHarborTask } from "../../src/harbor/harbor-task-loader";

const FIXTURE = fileURLToPath(new URL("../fixtures/harbor-mcp-lookup/", import.meta.url));

const HEAD = `schema_version = "1.1"
[agent]
timeout_sec = 300.0
`;

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "raas-harbor-mcp-"));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A copy of the fixture task under `name` with `servers` (TOML) as its task.toml's servers. */
function taskWith(name: string, servers: string): string {
  const dir = join(root, name);
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, "task.toml"), `${HEAD}${servers}`);
  return dir;
}

/** `CODE: message` of a thrown failure. */
const described = (error: unknown) =>
  `${(error as { failure?: { code?: string } }).failure?.code}: ${(error as Error).message}`;

const failureOf = (dir: string) => loadHarborTask(dir).then(() => "loaded", described);

describe("[[environment.mcp_servers]] of a Harbor task", () => {
  it("maps a stdio server into the payload's mcp, its /app paths mapped to /workspace", async () => {
    const loaded = await loadHarborTask(FIXTURE);
    expect(loaded.hostIncompatibility).toBeNull();
    expect(loaded.task.config.mcpServers).toEqual([
      {
        name: "catalog",
        transport: "stdio",
        command: "python3",
        args: ["-I", "/app/tools/catalog_server.py", "--data", "/app/tools/bins.json"],
        env: {},
        url: null,
      },
    ]);
    const mcp = {
      toolsMode: "add",
      servers: [
        {
          name: "catalog",
          command: "python3",
          args: ["-I", "/workspace/tools/catalog_server.py", "--data", "/workspace/tools/bins.json"],
          env: {},
        },
      ],
    };
    expect(loaded.mcp).toEqual(mcp);
    const request = harborJobRequest(loaded, { taskId: "lookup-1" });
    expect(request.payload.mcp).toEqual(mcp);
    expect(ZHarborPayload.safeParse(request.payload).success).toBe(true);
    // The server's script is among the files INIT places in the workspace.
    expect(loaded.task.environment.map((file) => file.path)).toContain("tools/catalog_server.py");
  });

  it("maps env, and a task without a Dockerfile, whose environment/ is the workspace", async () => {
    const dir = taskWith(
      "env-no-dockerfile",
      `[[environment.mcp_servers]]
name = "catalog_2"
transport = "stdio"
command = "/workspace/tools/catalog_server.py"
env = { CATALOG_DATA = "/workspace/tools/bins.json", MODE = "strict" }
`,
    );
    rmSync(join(dir, "environment/Dockerfile"));
    const loaded = await loadHarborTask(dir);
    expect(loaded.mcp).toEqual({
      toolsMode: "add",
      servers: [
        {
          name: "catalog_2",
          command: "/workspace/tools/catalog_server.py",
          args: [],
          env: { CATALOG_DATA: "/workspace/tools/bins.json", MODE: "strict" },
        },
      ],
    });
  });

  it("leaves a task without servers without mcp", async () => {
    const loaded = await loadHarborTask(taskWith("no-servers", ""));
    expect([loaded.task.config.mcpServers, loaded.mcp]).toEqual([[], undefined]);
    expect(harborJobRequest(loaded).payload).not.toHaveProperty("mcp");
  });

  it("reports a network server as a task that cannot run here, naming task.toml and the server", async () => {
    const cases = {
      sse: `[[environment.mcp_servers]]\nname = "search"\ntransport = "sse"\nurl = "http://mcp.example:8000/sse"\n`,
      "streamable-http": `[[environment.mcp_servers]]\nname = "db"\ntransport = "streamable-http"\nurl = "http://db:9000/mcp"\n`,
      // Harbor's default transport is sse.
      default: `[[environment.mcp_servers]]\nname = "docs"\nurl = "http://docs:8080/sse"\n`,
      // One network server among stdio ones: never run with only some of its tools.
      mixed: `[[environment.mcp_servers]]\nname = "catalog"\ntransport = "stdio"\ncommand = "python3"\n[[environment.mcp_servers]]\nname = "web"\ntransport = "sse"\nurl = "http://web/sse"\n`,
    };
    const reasons: Record<string, string | null> = {};
    for (const [name, servers] of Object.entries(cases)) {
      const loaded = await loadHarborTask(taskWith(`net-${name}`, servers));
      reasons[name] = loaded.hostIncompatibility;
      expect(loaded.mcp, name).toBeUndefined();
      let refusal = "";
      try {
        harborJobRequest(loaded);
      } catch (error) {
        refusal = described(error);
      }
      expect(refusal, name).toBe(`VALIDATION_FAILED: ${loaded.dir}: ${loaded.hostIncompatibility}`);
      const crafted = ZHarborPayload.safeParse({ taskId: name, task: loaded.task });
      expect(crafted.success, name).toBe(false);
    }
    expect(reasons.sse).toBe(
      'task.toml [[environment.mcp_servers]] "search": transport "sse" (http://mcp.example:8000/sse) is a network MCP server, and sandboxes have no network — the task cannot run here without its tools (only stdio servers, run inside the sandbox, are supported)',
    );
    expect(reasons["streamable-http"]).toMatch(
      /^task\.toml \[\[environment\.mcp_servers\]\] "db": transport "streamable-http"/,
    );
    expect(reasons.default).toMatch(/^task\.toml \[\[environment\.mcp_servers\]\] "docs": transport "sse"/);
    expect(reasons.mixed).toMatch(/^task\.toml \[\[environment\.mcp_servers\]\] "web": transport "sse"/);
  });

  it("refuses a malformed entry when loading, naming task.toml and the field", async () => {
    const server = (body: string) => `[[environment.mcp_servers]]\n${body}`;
    const cases: Record<string, [servers: string, expected: string]> = {
      "no-command": [
        server('name = "catalog"\ntransport = "stdio"\n'),
        'task.toml: environment.mcp_servers[0].command: required for transport "stdio"',
      ],
      "no-url": [
        server('name = "search"\ntransport = "sse"\n'),
        'task.toml: environment.mcp_servers[0].url: required for transport "sse"',
      ],
      "unknown-key": [
        server('name = "catalog"\ntransport = "stdio"\ncommand = "python3"\ncwd = "/srv"\n'),
        'task.toml: environment.mcp_servers[0]: Unrecognized key: "cwd"',
      ],
      "unknown-transport": [
        server('name = "catalog"\ntransport = "websocket"\ncommand = "python3"\n'),
        "task.toml: environment.mcp_servers[0].transport:",
      ],
      templated: [
        server(
          `name = "catalog"\ntransport = "stdio"\ncommand = "python3"\nenv = { TOKEN = "\${HOST_TOKEN}" }\n`,
        ),
        `task.toml: environment.mcp_servers[0].env.TOKEN: \${VAR} templating`,
      ],
      "bad-name": [
        server('name = "the catalog"\ntransport = "stdio"\ncommand = "python3"\n'),
        "task.toml: environment.mcp_servers[0].name: a server name is 1–64 letters, digits, `_` or `-`",
      ],
      "same-name": [
        `${server('name = "catalog"\ntransport = "stdio"\ncommand = "python3"\n')}${server('name = "catalog"\ntransport = "stdio"\ncommand = "node"\n')}`,
        "task.toml: environment.mcp_servers: server names must be unique",
      ],
    };
    for (const [name, [servers, expected]] of Object.entries(cases)) {
      const message = await failureOf(taskWith(`bad-${name}`, servers));
      expect(message.startsWith(`VALIDATION_FAILED: bad-${name}/${expected}`), `${name}: ${message}`).toBe(
        true,
      );
    }
  });

  it("refuses a payload whose mcp leaves out a server the task declares", async () => {
    const loaded = await loadHarborTask(FIXTURE);
    const { mcp: _mcp, ...payload } = harborJobRequest(loaded, { taskId: "no-tools" }).payload;
    const parsed = ZHarborPayload.safeParse(payload);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      'task raas-fixtures/mcp-lookup declares the MCP server "catalog" (task.toml [[environment.mcp_servers]]), which mcp does not start; harborJobRequest maps a task\'s servers into mcp',
    ]);
  });
});
