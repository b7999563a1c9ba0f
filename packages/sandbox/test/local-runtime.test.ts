import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isProcessAlive, LOCAL_RUNTIME_WARNING, LocalRuntime, processIdentity } from "../src/index";

describe("local runtime (development only)", () => {
  const baseDir = mkdtempSync(join(tmpdir(), "raas-local-test-"));
  const warnings: string[] = [];
  const runtime = new LocalRuntime({ baseDir, warn: (message) => warnings.push(message) });
  afterAll(async () => {
    await runtime.closeAll();
    rmSync(baseDir, { recursive: true, force: true });
  });

  it("warns loudly at construction and for every sandbox", async () => {
    expect(warnings).toEqual([LOCAL_RUNTIME_WARNING]);
    const sandbox = await runtime.create({});
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain("NO ISOLATION");
    await sandbox.close();
  });

  it("serves the same tools in a host directory and cleans up its processes", async () => {
    const sandbox = await runtime.create({ files: { "x.txt": "local" } });
    const workspace = join(baseDir, sandbox.id, "workspace");
    expect((await sandbox.runTool("bash", { command: "pwd; cat x.txt" })).output).toBe(`${workspace}\nlocal`);
    expect((await sandbox.runTool("python", { code: "6 * 7" })).output).toBe("42\n");
    const edit = await sandbox.runTool("editor", { command: "view", path: "/etc/hostname" });
    expect(edit.isError).toBe(true);
    await sandbox.runTool("bash", { command: "sleep 1000 &" });
    const identities = sandbox
      .processIds()
      .map(processIdentity)
      .filter((id): id is string => id !== undefined);
    await sandbox.close();
    expect(identities.filter(isProcessAlive)).toEqual([]);
  });
});
