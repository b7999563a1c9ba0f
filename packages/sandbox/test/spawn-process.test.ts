import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ManagedSandbox } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

/** Reads stdout until it holds `count` lines. */
function lines(chunks: Uint8Array[], count: number): Promise<string[]> {
  return new Promise((resolve) => {
    const check = () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const got = text.split("\n").filter((line) => line !== "");
      if (got.length >= count) resolve(got);
      else setTimeout(check, 10);
    };
    check();
  });
}

const ECHO = "import sys\nfor line in sys.stdin:\n    print('echo:' + line.strip(), flush=True)\n";

describe("Sandbox.spawn: a long-lived process with piped stdio", () => {
  const fixture = createTestRuntime();
  let sandbox: ManagedSandbox;

  beforeAll(async () => {
    sandbox = await fixture.runtime.create({});
  });
  afterAll(() => fixture.dispose());

  it("streams stdin in and stdout out, line by line, and reports the exit", async () => {
    const process = await sandbox.spawn(["python3", "-u", "-c", ECHO]);
    const chunks: Uint8Array[] = [];
    process.onStdout((chunk) => chunks.push(chunk));
    await process.write("one\n");
    expect(await lines(chunks, 1)).toEqual(["echo:one"]);
    await process.write("two\nthree\n");
    expect(await lines(chunks, 3)).toEqual(["echo:one", "echo:two", "echo:three"]);
    await process.kill();
    const exit = await process.exited;
    expect(exit.signal ?? exit.exitCode).not.toBe(0);
    await expect(process.write("late\n")).rejects.toThrow(/not running/);
  });

  it("reports an exit code and the stderr tail of a process that ends by itself", async () => {
    const process = await sandbox.spawn(["sh", "-c", "echo broken >&2; exit 3"]);
    expect(await process.exited).toEqual({ exitCode: 3, signal: null, stderrTail: "broken\n" });
  });

  it("runs out of the agent's tools' reach: bash cannot see it", async () => {
    const process = await sandbox.spawn(["sleep", "1003"]);
    const seen = await sandbox.runTool("bash", { command: "pgrep -fc 'sleep 1003' || true" });
    expect(seen.output.trim()).toBe("0");
    await process.kill();
    await process.exited;
  });

  it("fails to start a command that does not exist", async () => {
    const process = await sandbox.spawn(["/nonexistent/server"]);
    const exit = await process.exited;
    expect(exit.exitCode).not.toBe(0);
  });
});
