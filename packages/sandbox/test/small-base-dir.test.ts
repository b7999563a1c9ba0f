import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BubblewrapRuntime } from "../src/index";
import { requireBubblewrap } from "./support/sandbox-fixture";

/** Every regular file under `dir` with its size, in bytes. */
function filesUnder(dir: string): Array<{ path: string; bytes: number }> {
  const found: Array<{ path: string; bytes: number }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path));
    else if (entry.isFile()) found.push({ path, bytes: statSync(path).size });
  }
  return found;
}

// The node binary is ~96 MB; a base directory must not need a copy of it (issue 31, part 4): a
// 64 MiB tmpfs, the operator's way to bound sandbox disk, never worked even when empty.
describe("a small sandbox base directory", () => {
  const isRoot = process.getuid?.() === 0;
  const baseDir = mkdtempSync(join(tmpdir(), "raas-small-base-"));
  let runtime: BubblewrapRuntime;

  beforeAll(() => {
    // As root, a real 64 MiB tmpfs; otherwise a plain directory and the assertion on its contents.
    if (isRoot) execFileSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", baseDir]);
    runtime = new BubblewrapRuntime({ bwrapPath: requireBubblewrap(), baseDir, warn: () => {} });
  });

  afterAll(async () => {
    await runtime.closeAll();
    if (isRoot) execFileSync("umount", [baseDir]);
    rmSync(baseDir, { recursive: true, force: true });
  });

  it("starts sandboxes, and holds no copy of the node binary", async () => {
    const sandbox = await runtime.create({ jobId: "small-base" });
    const result = await sandbox.runTool("bash", { command: "echo started; node -e 'console.log(6 * 7)'" });
    expect(result.output).toContain("started");
    const nodeBytes = statSync(process.execPath).size;
    const copies = filesUnder(baseDir).filter((file) => file.bytes >= nodeBytes);
    expect(copies).toEqual([]);
    await sandbox.close();
  });

  it("refuses an execute-only binary directory that others can write to", async () => {
    const execBinDir = mkdtempSync(join(tmpdir(), "raas-open-bin-"));
    chmodSync(execBinDir, 0o777);
    const open = new BubblewrapRuntime({
      bwrapPath: requireBubblewrap(),
      baseDir,
      execBinDir,
      warn: () => {},
    });
    try {
      await expect(open.create({ jobId: "open-bin" })).rejects.toThrow(/writable by no one else/);
    } finally {
      await open.closeAll();
      rmSync(execBinDir, { recursive: true, force: true });
    }
  });
});
