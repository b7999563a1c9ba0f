import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import type { TSandboxEvent } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { isProcessAlive, processIdentity } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

describe("bubblewrap sandbox security", () => {
  const fixture = createTestRuntime();
  const events: TSandboxEvent[] = [];
  fixture.runtime.onEvent((event) => events.push(event));
  afterAll(() => fixture.dispose());

  it("contains a fork bomb with the process limit; the host and other sandboxes keep working", async () => {
    const bombed = await fixture.runtime.create({ limits: { maxProcesses: 64 } });
    const neighbour = await fixture.runtime.create({});
    let peakProcesses = 0;
    const sampler = setInterval(() => {
      peakProcesses = Math.max(peakProcesses, bombed.processIds().length);
    }, 20);
    const result = await bombed.runTool(
      "bash",
      { command: "bomb() { bomb | bomb & }; bomb; sleep 2" },
      { timeoutMs: 10_000 },
    );
    clearInterval(sampler);
    expect(result.output).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
    expect(peakProcesses).toBeGreaterThan(10);
    // 64 inside the user namespace, plus the outer bwrap process that lives outside it. A /proc
    // scan is not atomic, so a process that exits mid-scan can be counted with its replacement:
    // allow a little churn (an uncontained bomb reaches thousands within the same second).
    expect(peakProcesses).toBeLessThanOrEqual(65 + 8);
    expect(
      events.some(
        (event) =>
          event.sandboxId === bombed.id && event.type === "limit_hit" && event.detail?.limit === "processes",
      ),
    ).toBe(true);
    expect(execFileSync("/bin/echo", ["host ok"]).toString()).toBe("host ok\n");
    expect((await neighbour.runTool("bash", { command: "echo neighbour ok" })).output).toBe("neighbour ok\n");
    const identities = bombed.processIds().map(processIdentity);
    await bombed.close();
    expect(identities.filter((id) => id !== undefined && isProcessAlive(id))).toEqual([]);
    await neighbour.close();
  });

  it("stops a memory hog with the memory limit and keeps the sandbox usable", async () => {
    const sandbox = await fixture.runtime.create({ limits: { memoryBytes: 256 * 1024 ** 2 } });
    const hog = await sandbox.runTool("bash", {
      command: "python3 -c 'x = bytearray(1024 ** 3); print(\"allocated\")'",
    });
    expect(hog.isError).toBe(true);
    expect(hog.output).toContain("MemoryError");
    expect(hog.output).not.toContain("allocated");
    const inPython = await sandbox.runTool("python", {
      code: "blocks = [bytearray(64 * 1024 ** 2) for _ in range(16)]",
    });
    expect(inPython.output).toContain("MemoryError");
    expect((await sandbox.runTool("python", { code: "'alive'" })).output).toBe("'alive'\n");
    expect(events.some((event) => event.sandboxId === sandbox.id && event.detail?.limit === "memory")).toBe(
      true,
    );
    await sandbox.close();
  });

  it("stops infinite loops: per-call timeout, CPU-time limit and wall-time limit", async () => {
    const sandbox = await fixture.runtime.create({ limits: { cpuTimeSec: 1 } });
    const timed = await sandbox.runTool(
      "bash",
      { command: "python3 -c 'while True: pass'" },
      { timeoutMs: 800 },
    );
    expect(timed.timedOut).toBe(true);
    expect((await sandbox.runTool("bash", { command: "pgrep -c python3 || true" })).output).toBe("0\n");
    const cpu = await sandbox.runTool(
      "bash",
      { command: "python3 -c 'while True: pass'" },
      { timeoutMs: 20_000 },
    );
    expect(cpu.timedOut).toBe(false);
    expect(cpu.exitCode).toBe(152);
    expect(cpu.output).toContain("CPU time limit exceeded");
    expect(events.some((event) => event.sandboxId === sandbox.id && event.detail?.limit === "cpu")).toBe(
      true,
    );
    await sandbox.close();

    const walled = await fixture.runtime.create({ limits: { wallTimeMs: 1_000 } });
    const identities = walled.processIds().map(processIdentity);
    const call = walled.runTool("bash", { command: "while :; do :; done" }, { timeoutMs: 30_000 });
    await expect(call).rejects.toThrow(/closed \(wall_time\)/);
    await walled.close();
    expect(walled.state).toBe("closed");
    expect(events.some((event) => event.sandboxId === walled.id && event.detail?.limit === "wallTime")).toBe(
      true,
    );
    expect(identities.filter((id) => id !== undefined && isProcessAlive(id))).toEqual([]);
  });

  it("cannot connect to a TCP server on the host's 127.0.0.1", async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections += 1;
      socket.end("secret");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const sandbox = await fixture.runtime.create({});
    const viaBash = await sandbox.runTool("bash", {
      command: `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`,
    });
    const viaPython = await sandbox.runTool("python", {
      code: `import socket\nsocket.create_connection(("127.0.0.1", ${port}), timeout=2).recv(10)`,
    });
    server.close();
    expect(viaBash.isError).toBe(true);
    expect(viaBash.output).not.toContain("secret");
    expect(viaPython.output).toMatch(/ConnectionRefusedError|OSError/);
    expect(connections).toBe(0);
    await sandbox.close();
  });

  it("cannot write outside the workspace", async () => {
    const sandbox = await fixture.runtime.create({});
    const marker = `raas-escape-${Date.now()}`;
    const targets = ["/usr", "/etc", "", "/opt/raas/server", "/run"].map((dir) => `${dir}/${marker}`);
    const result = await sandbox.runTool("bash", { command: targets.map((t) => `echo x > ${t}`).join("; ") });
    expect(result.output.match(/Read-only file system/g)?.length).toBe(targets.length);
    for (const target of targets) expect(existsSync(target)).toBe(false);
    expect(
      (
        await sandbox.runTool("bash", {
          command: `echo ok > /workspace/${marker} && echo ok > /tmp/${marker}`,
        })
      ).exitCode,
    ).toBe(0);
    await expect(sandbox.writeFile(`../${marker}`, "x")).rejects.toMatchObject({
      failure: { reason: "forbidden" },
    });
    const edit = await sandbox.runTool("editor", {
      command: "create",
      path: `/tmp/${marker}-2`,
      file_text: "x",
    });
    expect(edit.isError).toBe(true);
    await sandbox.close();
  });

  it("cannot read a file placed in the host user's home, nor the host's environment", async () => {
    const secretPath = join(homedir(), `raas-secret-${process.pid}.txt`);
    writeFileSync(secretPath, "host-secret-value");
    process.env.RAAS_HOST_ONLY_SECRET = "host-env-secret";
    try {
      const sandbox = await fixture.runtime.create({});
      expect((await sandbox.runTool("bash", { command: "env; cat /proc/1/environ" })).output).not.toContain(
        "host-env-secret",
      );
      const result = await sandbox.runTool("bash", {
        command: `cat ${secretPath}; ls ${homedir()}; grep -rs host-secret-value /etc /tmp /workspace`,
      });
      expect(result.output).not.toContain("host-secret-value");
      expect(result.output).toContain("No such file or directory");
      await expect(sandbox.readFile(secretPath)).rejects.toMatchObject({ failure: { reason: "forbidden" } });
      await sandbox.close();
    } finally {
      delete process.env.RAAS_HOST_ONLY_SECRET;
      rmSync(secretPath, { force: true });
    }
  });

  it("puts every process in the sandbox's own cgroups when the hierarchy is writable, and removes them on close", async () => {
    const sandbox = await fixture.runtime.create({
      limits: { maxProcesses: 50, memoryBytes: 512 * 1024 ** 2 },
    });
    await sandbox.runTool("bash", { command: "sleep 100 &" });
    const pids = sandbox.processIds();
    const cgroupLines = pids.map((pid) => readFileSync(`/proc/${pid}/cgroup`, "utf8"));
    const isWritable = process.getuid?.() === 0 && existsSync("/sys/fs/cgroup/pids/cgroup.procs");
    const pidsDir = join("/sys/fs/cgroup/pids", `raas-${sandbox.id}`);
    if (isWritable) {
      expect(cgroupLines.every((text) => text.includes(`raas-${sandbox.id}`))).toBe(true);
      expect(readFileSync(join(pidsDir, "pids.max"), "utf8").trim()).toBe("51");
    } else {
      expect(cgroupLines.some((text) => text.includes("raas-"))).toBe(false);
    }
    const cgroupsFile = join(fixture.baseDir, sandbox.id, "cgroups.json");
    const cgroupDirs = existsSync(cgroupsFile)
      ? (JSON.parse(readFileSync(cgroupsFile, "utf8")) as string[])
      : [];
    expect(cgroupDirs.length).toBe(isWritable ? 2 : 0);
    await sandbox.close();
    expect(existsSync(pidsDir)).toBe(false);
    expect(cgroupDirs.filter((dir) => existsSync(dir))).toEqual([]);
  });

  it("leaves no process behind after close, including detached daemons", async () => {
    const sandbox = await fixture.runtime.create({});
    await sandbox.runTool("bash", {
      command: "sleep 1000 & (setsid sleep 1001 &) ; nohup sleep 1002 >/dev/null 2>&1 &",
    });
    await sandbox.runTool("python", {
      code: "import subprocess\np = subprocess.Popen(['sleep', '1003'], start_new_session=True)",
    });
    const pids = sandbox.processIds();
    const sleeps = pids.filter((pid) => {
      try {
        return (
          execFileSync("cat", [`/proc/${pid}/comm`])
            .toString()
            .trim() === "sleep"
        );
      } catch {
        return false;
      }
    });
    expect(sleeps.length).toBe(4);
    const identities = pids.map(processIdentity).filter((id): id is string => id !== undefined);
    expect(identities.length).toBeGreaterThan(6);
    await sandbox.close();
    expect(identities.filter(isProcessAlive)).toEqual([]);
    expect(existsSync(join(fixture.baseDir, sandbox.id))).toBe(false);
  });
});
