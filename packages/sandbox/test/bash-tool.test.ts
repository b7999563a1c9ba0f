import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ManagedSandbox } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

describe("bash tool in a bubblewrap sandbox", () => {
  const fixture = createTestRuntime({ defaultLimits: { maxOutputBytes: 2_000 }, noOutputTimeoutMs: 500 });
  let sandbox: ManagedSandbox;
  const bash = (command: string, timeoutMs?: number, signal?: AbortSignal) =>
    sandbox.runTool(
      "bash",
      { command },
      { ...(timeoutMs ? { timeoutMs } : {}), ...(signal ? { signal } : {}) },
    );

  beforeAll(async () => {
    sandbox = await fixture.runtime.create({ files: { "src/main.py": "print('hi')\n" } });
  });
  afterAll(() => fixture.dispose());

  it("runs commands in /workspace and returns output and exit codes", async () => {
    expect(await bash("pwd; ls src")).toMatchObject({
      output: "/workspace\nmain.py\n",
      exitCode: 0,
      isError: false,
    });
    expect(await bash("echo oops >&2; exit_code() { return 7; }; exit_code")).toMatchObject({
      output: "oops\n",
      exitCode: 7,
      isError: true,
    });
  });

  it("keeps cwd, variables, functions and background jobs between calls", async () => {
    await bash(
      'mkdir -p /tmp/work && cd /tmp/work && export GREETING=hello && greet() { echo "$GREETING $1"; }',
    );
    expect((await bash("pwd; greet world")).output).toBe("/tmp/work\nhello world\n");
    await bash("sleep 30 & echo $! > /tmp/bg.pid");
    const jobs = await bash("jobs -r | wc -l; kill -0 $(cat /tmp/bg.pid) && echo alive");
    expect(jobs.output).toMatch(/^1\n.*alive\n$/s);
    await bash("kill %1; wait; cd /workspace");
  });

  it("handles multi-line scripts, quotes and heredocs without echoing the input", async () => {
    const result = await bash(
      "for i in 1 2 3; do\n  echo \"line $i\"\ndone\ncat <<'EOF'\n$NOT_EXPANDED 'q'\nEOF",
    );
    expect(result.output).toBe("line 1\nline 2\nline 3\n$NOT_EXPANDED 'q'\n");
    expect(result.output).not.toContain("\x1b[?2004");
  });

  it("interrupts a command past its timeout and keeps the shell and its state", async () => {
    await bash("export KEPT=yes");
    const slow = await bash("echo started; sleep 3031; echo never", 600);
    expect(slow.timedOut).toBe(true);
    expect(slow.exitCode).toBe(130);
    expect(slow.output).toMatch(/^started\n[\s\S]*timed out after 600 ms/);
    // Interrupted, not waited out: the rest of the script never ran and its sleep is gone.
    expect(slow.output).not.toContain("never");
    expect((await bash("pgrep -fc 'sleep 3031' || true")).output).toBe("0\n");
    expect((await bash("echo $KEPT")).output).toBe("yes\n");
  });

  it("kills a foreground process group that ignores Ctrl-C", async () => {
    const stubborn = await bash(
      "python3 -c 'import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(60)'",
      600,
    );
    expect(stubborn.timedOut).toBe(true);
    expect(stubborn.exitCode).toBe(137);
    expect((await bash("echo recovered")).output).toBe("recovered\n");
  });

  it("interrupts a busy loop in the shell itself", async () => {
    const loop = await bash("while :; do :; done", 500);
    expect(loop.timedOut).toBe(true);
    expect((await bash("echo fine")).output).toBe("fine\n");
  });

  it("detects programs waiting for terminal input instead of hanging until the timeout", async () => {
    for (const command of ["read answer", "cat", "python3 -i -q"]) {
      const result = await bash(command, 20_000);
      expect(result.timedOut, command).toBe(true);
      // Detected, not waited out: the answer names the terminal wait, not the 20 s timeout.
      expect(result.output).toMatch(/waiting for terminal input/);
      expect(result.output).not.toMatch(/timed out after/);
    }
    expect((await bash("echo usable")).output).toBe("usable\n");
  });

  it("stops a command when the caller aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await bash("sleep 30", 30_000, controller.signal);
    expect(result.timedOut).toBe(true);
    expect(result.output).toMatch(/interrupted by the caller/);
  });

  it("truncates long output with a note of how much was cut", async () => {
    const result = await bash("seq 1 20000");
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.output.endsWith("19999\n20000\n")).toBe(true);
    expect(result.output).toMatch(/output truncated: \d+ of 108894 bytes cut \(limit 2000 bytes\)/);
  });

  it("starts a fresh shell after `exit`", async () => {
    const exited = await bash("exit 4");
    expect(exited.isError).toBe(true);
    expect(exited.output).toMatch(/shell exited \(code 4/);
    expect((await bash("echo again; pwd")).output).toBe("again\n/workspace\n");
  });

  it("serializes concurrent calls on the one shell", async () => {
    const results = await Promise.all([bash("sleep 0.2; echo a"), bash("echo b"), bash("echo c")]);
    expect(results.map((result) => result.output)).toEqual(["a\n", "b\n", "c\n"]);
  });
});
