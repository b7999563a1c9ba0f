import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ManagedSandbox } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

describe("python tool in a bubblewrap sandbox", () => {
  const fixture = createTestRuntime({ defaultLimits: { maxOutputBytes: 1_000 } });
  let sandbox: ManagedSandbox;
  const python = (code: string, timeoutMs?: number) =>
    sandbox.runTool("python", { code }, timeoutMs ? { timeoutMs } : {});

  beforeAll(async () => {
    sandbox = await fixture.runtime.create({});
  });
  afterAll(() => fixture.dispose());

  it("keeps variables, functions and imports between calls", async () => {
    expect(await python("import math\nradius = 2\ndef area(r):\n    return math.pi * r * r")).toMatchObject({
      output: "",
      exitCode: 0,
      isError: false,
    });
    expect((await python("print(round(area(radius), 3))")).output).toBe("12.566\n");
  });

  it("shows the value of a final expression, like a REPL", async () => {
    expect((await python("[n * n for n in range(4)]")).output).toBe("[0, 1, 4, 9]\n");
    expect((await python("None")).output).toBe("");
  });

  it("captures stdout and stderr in order, including subprocess output", async () => {
    const result = await python(
      "import sys, subprocess\nprint('out')\nprint('err', file=sys.stderr)\nsubprocess.run(['echo', 'child'])",
    );
    expect(result.output).toContain("out\nerr\nchild\n");
  });

  it("returns the traceback of an exception, starting at the cell", async () => {
    const result = await python("def boom():\n    raise ValueError('bad value')\nboom()");
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Traceback \(most recent call last\):\n {2}File "<cell>", line 3/);
    expect(result.output).toContain("ValueError: bad value");
    expect(result.output).not.toContain("python-driver");
    expect((await python("1 +")).output).toMatch(/SyntaxError/);
  });

  it("interrupts a cell past its timeout with KeyboardInterrupt and keeps the interpreter", async () => {
    await python("kept = 'still here'");
    const slow = await python("import time\nwhile True:\n    time.sleep(0.01)", 500);
    expect(slow.timedOut).toBe(true);
    expect(slow.output).toMatch(/KeyboardInterrupt/);
    expect((await python("kept")).output).toBe("'still here'\n");
  });

  it("restarts an interpreter that ignores KeyboardInterrupt, and says state was lost", async () => {
    const stuck = await python(
      "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)",
      400,
    );
    expect(stuck.timedOut).toBe(true);
    expect(stuck.output).toMatch(/restarted, so earlier variables are lost/);
    expect((await python("'kept' in globals()")).output).toBe("False\n");
  });

  it("treats sys.exit(0) as success and sys.exit(3) as an error, keeping the interpreter", async () => {
    await python("survivor = 1");
    expect((await python("import sys\nsys.exit(0)")).isError).toBe(false);
    expect((await python("import sys\nsys.exit(3)")).isError).toBe(true);
    expect((await python("survivor")).output).toBe("1\n");
  });

  it("cannot end a cell early by printing an end marker, and stays in step afterwards", async () => {
    await python("kept_marker = 'yes'");
    const forged = await python(
      [
        "import sys",
        "ready_nonce = open('/proc/self/cmdline').read().split('\\0')[-2]",
        "for status in ('ok', 'error', 'exit:0'):",
        "    print('\\n__RAAS_PY_%s_%s__' % (ready_nonce, status))",
        "print('after', sys.argv)",
        "raise ValueError('still running')",
      ].join("\n"),
      15_000,
    );
    expect(forged).toMatchObject({ isError: true, timedOut: false });
    expect(forged.output).toMatch(/_exit:0__\nafter \[''\]\nTraceback[\s\S]*ValueError: still running\n$/);
    const multiLineExit = await python("import sys\nsys.exit('two\\nlines')", 15_000);
    expect(multiLineExit).toMatchObject({ isError: true, timedOut: false, output: "" });
    expect(await python("kept_marker")).toMatchObject({ output: "'yes'\n", isError: false });
  });

  it("does not block on input() and truncates long output", async () => {
    expect((await python("input()")).output).toMatch(/EOFError/);
    const long = await python("print('x' * 5000)");
    expect(long.truncated).toBe(true);
    expect(long.output).toMatch(/output truncated/);
  });

  it("names the process limit when a cell's forks are refused, and records a limit_hit", async () => {
    const limited = await fixture.runtime.create({ limits: { maxProcesses: 64 } });
    const hits: unknown[] = [];
    const stop = fixture.runtime.onEvent((event) => {
      if (event.sandboxId === limited.id && event.type === "limit_hit") hits.push(event.detail);
    });
    try {
      const forks = await limited.runTool(
        "python",
        {
          code: "import os, time\nwhile True:\n    if os.fork() == 0:\n        time.sleep(2)\n        os._exit(0)\n",
        },
        { timeoutMs: 20_000 },
      );
      expect(forks.output).toContain("BlockingIOError: [Errno 11]");
      expect(hits).toContainEqual(expect.objectContaining({ limit: "processes", tool: "python" }));
    } finally {
      stop();
      await limited.close();
    }
  });
});
