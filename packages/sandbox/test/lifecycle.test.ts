import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TSandboxEvent } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { BubblewrapRuntime, isProcessAlive, processIdentity, SANDBOX_TOOL_SPECS } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

const childScript = fileURLToPath(new URL("./support/host-exit-child.ts", import.meta.url));

/** Runs the host-exit child; resolves with what it printed once it has printed it. */
function startChild(baseDir: string, mode: "exit" | "wait") {
  const child = spawn(process.execPath, ["--import", "tsx", childScript, baseDir, mode], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const printed = new Promise<{ pids: number[]; root: string; cgroups: string[] }>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!));
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`child exited (${code}) before printing: ${err}`)));
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return { child, printed, exited };
}

async function waitUntil(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return predicate();
}

describe("sandbox lifecycle", () => {
  const fixture = createTestRuntime();
  const events: TSandboxEvent[] = [];
  fixture.runtime.onEvent((event) => events.push(event));
  afterAll(() => fixture.dispose());

  it("reports created → ready (with its latency) → closed, and busy while a tool runs", async () => {
    const sandbox = await fixture.runtime.create({ jobId: "job-1" });
    expect(sandbox.state).toBe("ready");
    const call = sandbox.runTool("bash", { command: "sleep 0.2" });
    expect(sandbox.state).toBe("busy");
    await call;
    expect(sandbox.state).toBe("ready");
    await sandbox.close();
    await sandbox.close(); // idempotent
    expect(sandbox.state).toBe("closed");
    const mine = events.filter((event) => event.sandboxId === sandbox.id);
    expect(mine.map((event) => event.type)).toEqual(["created", "ready", "closed"]);
    expect(mine.every((event) => event.jobId === "job-1")).toBe(true);
    expect(mine[1]!.detail?.readyMs).toBeGreaterThan(0);
    await expect(sandbox.runTool("bash", { command: "true" })).rejects.toMatchObject({
      failure: { kind: "sandbox-error" },
    });
    expect(fixture.runtime.toolSpecs).toBe(SANDBOX_TOOL_SPECS);
  });

  it("hands out warm-pool sandboxes with the spec's files, refills, and cold-starts specs it cannot serve", async () => {
    const runtime = new BubblewrapRuntime({ baseDir: fixture.baseDir, warmPoolSize: 2, warn: () => {} });
    const poolEvents: TSandboxEvent[] = [];
    runtime.onEvent((event) => poolEvents.push(event));
    await runtime.warmUp();
    expect(runtime.openSandboxes).toHaveLength(2);
    const warmIds = runtime.openSandboxes.map((sandbox) => sandbox.id);
    const eventsBefore = poolEvents.length;
    const pooled = await runtime.create({ jobId: "job-pool", files: { "task.txt": "from spec" } });
    // Handed out, not started: one of the warm sandboxes, assigned without a launch of its own.
    // (How fast a handout is, is the tools bench's figure: `npm run bench -- tools`.)
    expect(warmIds).toContain(pooled.id);
    expect(poolEvents.slice(eventsBefore).filter((event) => event.sandboxId === pooled.id)).toEqual([
      expect.objectContaining({ type: "assigned" }),
    ]);
    expect((await pooled.runTool("bash", { command: "cat task.txt" })).output).toBe("from spec");
    expect(
      poolEvents.find((event) => event.sandboxId === pooled.id && event.type === "assigned"),
    ).toMatchObject({
      jobId: "job-pool",
      detail: { fromPool: true },
    });
    const cold = await runtime.create({ env: { MODE: "special" } });
    expect((await cold.runTool("bash", { command: "echo $MODE" })).output).toBe("special\n");
    expect(poolEvents.some((event) => event.sandboxId === cold.id && event.type === "assigned")).toBe(false);
    await runtime.warmUp();
    expect(runtime.openSandboxes).toHaveLength(4); // two handed out, two idle again
    await runtime.closeAll();
    expect(runtime.openSandboxes).toHaveLength(0);
  });

  it("reads, writes and lists workspace files and moves tars in and out", async () => {
    const sandbox = await fixture.runtime.create({
      files: { "a/b.txt": "initial", "bin.dat": new Uint8Array([0, 255, 1]) },
    });
    expect(Buffer.from(await sandbox.readFile("a/b.txt")).toString()).toBe("initial");
    expect([...(await sandbox.readFile("/workspace/bin.dat"))]).toEqual([0, 255, 1]);
    await sandbox.writeFile("new/dir/c.txt", "written");
    expect((await sandbox.runTool("bash", { command: "cat new/dir/c.txt" })).output).toBe("written");
    const listing = await sandbox.listFiles(".", { maxDepth: 3 });
    expect(listing.map((entry) => `${entry.type}:${entry.path}`)).toEqual([
      "dir:a",
      "file:a/b.txt",
      "file:bin.dat",
      "dir:new",
      "dir:new/dir",
      "file:new/dir/c.txt",
    ]);
    await expect(sandbox.readFile("missing.txt")).rejects.toMatchObject({
      failure: {
        reason: "request_failed",
        details: { code: "not_found" },
      },
    });
    const tar = await sandbox.downloadTar("a");
    const other = await fixture.runtime.create({});
    await other.uploadTar(tar, "restored");
    expect(Buffer.from(await other.readFile("restored/b.txt")).toString()).toBe("initial");
    await Promise.all([sandbox.close(), other.close()]);
  });

  it("runs many sandboxes in parallel, each isolated from the others", async () => {
    const sandboxes = await Promise.all(Array.from({ length: 6 }, () => fixture.runtime.create({})));
    await Promise.all(sandboxes.map((sandbox, index) => sandbox.writeFile("id.txt", String(index))));
    const outputs = await Promise.all(
      sandboxes.map((sandbox) => sandbox.runTool("bash", { command: "cat id.txt; ls /workspace | wc -l" })),
    );
    expect(outputs.map((result) => result.output)).toEqual(sandboxes.map((_, index) => `${index}1\n`));
    await fixture.runtime.closeAll();
    expect(sandboxes.every((sandbox) => sandbox.state === "closed")).toBe(true);
    expect(fixture.runtime.openSandboxes).toHaveLength(0);
  });

  it("detects a crashed execution server, reports it and cleans up", async () => {
    const sandbox = await fixture.runtime.create({});
    const identities = sandbox.processIds().map(processIdentity);
    // The tools cannot reach the server (red-team.test.ts); an outside cause kills it here.
    const serverPid = sandbox
      .processIds()
      .find((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "node");
    expect(serverPid).toBeDefined();
    process.kill(serverPid!, "SIGKILL");
    expect(await waitUntil(() => sandbox.state === "failed", 5_000)).toBe(true);
    const crashed = events.find((event) => event.sandboxId === sandbox.id && event.type === "crashed");
    expect(crashed?.state).toBe("failed");
    expect(await waitUntil(() => !existsSync(join(fixture.baseDir, sandbox.id)), 5_000)).toBe(true);
    expect(identities.filter((id) => id !== undefined && isProcessAlive(id))).toEqual([]);
  });

  it("declares a sandbox whose server stops answering crashed instead of waiting forever", async () => {
    const runtime = new BubblewrapRuntime({ baseDir: fixture.baseDir, hangSlackMs: 300, warn: () => {} });
    const hungEvents: TSandboxEvent[] = [];
    runtime.onEvent((event) => hungEvents.push(event));
    const sandbox = await runtime.create({});
    const serverPid = sandbox
      .processIds()
      .find((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "node");
    expect(serverPid).toBeDefined();
    process.kill(serverPid!, "SIGSTOP");
    const serverIdentity = processIdentity(serverPid!);
    await expect(sandbox.runTool("bash", { command: "true" }, { timeoutMs: 200 })).rejects.toMatchObject({
      failure: {
        reason: "crashed",
      },
    });
    expect(hungEvents.map((event) => event.type)).toEqual(["created", "ready", "crashed", "closed"]);
    expect(sandbox.state).toBe("failed");
    // Declared crashed and torn down: the stopped server does not linger.
    expect(serverIdentity).toBeDefined();
    expect(await waitUntil(() => !isProcessAlive(serverIdentity!), 5_000)).toBe(true);
  });

  it("fails creation with the launcher's error instead of hanging", async () => {
    const broken = new BubblewrapRuntime({
      baseDir: fixture.baseDir,
      bwrapPath: "/bin/false",
      warn: () => {},
    });
    await expect(broken.create({})).rejects.toMatchObject({ failure: { reason: "start_failed" } });
    await expect(fixture.runtime.create({ files: { "../escape.txt": "x" } })).rejects.toThrow(
      /outside the workspace/,
    );
    const leftovers = readdirSync(fixture.baseDir).filter((name) => name.startsWith("sbx-"));
    expect(leftovers.filter((name) => !fixture.runtime.openSandboxes.some((s) => s.id === name))).toEqual([]);
    const aborted = new AbortController();
    aborted.abort();
    await expect(fixture.runtime.create({}, aborted.signal)).rejects.toThrow(/cancelled/);
  });

  it("kills the sandbox and removes its files when the host process exits without closing", async () => {
    const { printed, exited } = startChild(fixture.baseDir, "exit");
    const { pids, root, cgroups } = await printed;
    const identities = pids.map(processIdentity).filter((id): id is string => id !== undefined);
    expect(identities.length).toBeGreaterThan(3);
    await exited;
    expect(await waitUntil(() => !identities.some(isProcessAlive), 5_000)).toBe(true);
    expect(existsSync(root)).toBe(false);
    expect(cgroups.filter((dir) => existsSync(dir))).toEqual([]);
  });

  it("when the host is SIGKILLed, the sandbox dies with it and the next runtime reaps its files", async () => {
    const { child, printed, exited } = startChild(fixture.baseDir, "wait");
    const { pids, root } = await printed;
    const identities = pids.map(processIdentity).filter((id): id is string => id !== undefined);
    child.kill("SIGKILL");
    await exited;
    expect(await waitUntil(() => !identities.some(isProcessAlive), 5_000)).toBe(true);
    expect(existsSync(root)).toBe(true);
    const unrelated = join(fixture.baseDir, "sbx-not-ours");
    mkdirSync(unrelated);
    writeFileSync(join(unrelated, "owner.json"), JSON.stringify({ hostPid: process.pid }));
    const cgroupsFile = join(root, "cgroups.json");
    const cgroupDirs = existsSync(cgroupsFile)
      ? (JSON.parse(readFileSync(cgroupsFile, "utf8")) as string[])
      : [];
    new BubblewrapRuntime({ baseDir: fixture.baseDir, warn: () => {} });
    expect(existsSync(root)).toBe(false);
    expect(cgroupDirs.filter((dir) => existsSync(dir))).toEqual([]);
    expect(existsSync(unrelated)).toBe(true);
  });
});
