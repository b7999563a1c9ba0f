// The `[mcp]` table of a dataset environment's environment.toml: the servers every task brings,
// carried in each job's payload (a `source` file's text appended to its arguments), and refused
// by name when malformed — at load time, not when a job starts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { failureOf } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { loadRewardEnvironment } from "../../src/reward-fn/reward-env-loader";

const MCP_DB = fileURLToPath(new URL("../../../../environments/mcp-db/", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "raas-reward-env-mcp-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
function envDir(manifest: string, extra: Record<string, string> = {}): string {
  count += 1;
  const dir = join(root, String(count), "env");
  mkdirSync(dir, { recursive: true });
  const files = {
    "environment.toml": manifest,
    "data.jsonl": `${JSON.stringify({ prompt: "How many?", ground_truth: "2" })}\n`,
    "verify.py": "def compute_score(solution_str, ground_truth, extra_info=None):\n    return 1.0\n",
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

async function loadMessage(dir: string): Promise<string> {
  const error = await loadRewardEnvironment(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(failureOf(error)).toMatchObject({ kind: "request", code: "VALIDATION_FAILED" });
  return failureOf(error)?.message ?? "";
}

describe("an environment's [mcp] table", () => {
  it("puts mcp-db's server, its source appended, in every task's payload", async () => {
    const env = await loadRewardEnvironment(MCP_DB);
    expect(env.tasks.map((task) => task.taskId)).toEqual([
      "mcp-db-mugs-sold",
      "mcp-db-ana-orders",
      "mcp-db-lisbon-revenue",
    ]);
    for (const task of env.tasks) {
      expect(task.mcp?.toolsMode).toBe("add");
      expect(task.mcp?.servers).toHaveLength(1);
      const [server] = task.mcp?.servers ?? [];
      expect(server).toMatchObject({ name: "db", command: "python3", env: {} });
      expect(server?.args.slice(0, 2)).toEqual(["-I", "-c"]);
      expect(server?.args[2]).toContain("def ");
    }
  });

  it("keeps tools_mode, args and env as written; a task without the table has no servers", async () => {
    const withTable = envDir(
      '[mcp]\ntools_mode = "only"\n[[mcp.servers]]\nname = "kv"\ncommand = "/usr/bin/kv-server"\nargs = ["--ro"]\nenv = { KV_DIR = "/data" }\n',
    );
    const [task] = (await loadRewardEnvironment(withTable)).tasks;
    expect(task?.mcp).toEqual({
      toolsMode: "only",
      servers: [{ name: "kv", command: "/usr/bin/kv-server", args: ["--ro"], env: { KV_DIR: "/data" } }],
    });
    const [plain] = (await loadRewardEnvironment(envDir(""))).tasks;
    expect(plain?.mcp).toBeUndefined();
  });

  it("refuses a missing source, a bad server name, twin names and unknown keys, naming the file", async () => {
    const server = (fields: string) => `[[mcp.servers]]\nname = "db"\ncommand = "python3"\n${fields}`;
    expect(await loadMessage(envDir(server('source = "gone.py"\n')))).toMatch(
      /env\/gone\.py: missing \(the source of MCP server "db"\)/,
    );
    expect(await loadMessage(envDir(server('source = "../x.py"\n')))).toContain("environment.toml");
    expect(await loadMessage(envDir('[[mcp.servers]]\nname = "a b"\ncommand = "python3"\n'))).toMatch(
      /env\/environment\.toml: .*mcp\.servers\[0\]\.name/,
    );
    expect(await loadMessage(envDir(`${server("")}${server("")}`))).toMatch(
      /env\/environment\.toml: .*server names must be unique/,
    );
    expect(await loadMessage(envDir(server('transport = "stdio"\n')))).toMatch(
      /environment\.toml.*transport/,
    );
    expect(await loadMessage(envDir('[mcp]\ntools_mode = "add"\n'))).toMatch(/environment\.toml.*servers/);
  });
});
