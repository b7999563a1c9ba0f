// A first run on a machine without bubblewrap, fresh-container style: `npm start` and `npm test`
// (scripts/start.mjs, scripts/test.mjs) either install the missing system packages (root + apt)
// or stop at once with the command to run — never a server that accepts work it cannot run.
// Then a normal `npm start --no-web`: examples written and explained before the dashboard step,
// the simulator on SIMULATOR_PORT. PATH is a scratch directory, so `bwrap` is missing there; the
// system directories still hold python3, pytest and git. The fake apt-get is a labelled test
// double for the package manager (a test cannot install packages for real).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SandboxUnavailableError } from "@raas/compose";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../src/server";

const ROOT = resolve(import.meta.dirname, "../../..");
const START = join(ROOT, "scripts/start.mjs");
const TEST = join(ROOT, "scripts/test.mjs");
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");
const dirs: string[] = [];
const children: ChildProcess[] = [];

function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once("error", () => resolveOpen(false));
  });
}

/** The environment of a machine whose PATH has no bubblewrap; apt disabled unless `withApt`. */
function bareEnv(bin: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: bin, RAAS_NO_APT: "1", ...extra };
  return env;
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("npm start / npm test on a machine without bubblewrap", () => {
  it("npm start stops at once with the install command and never opens its ports", async () => {
    const bin = scratch("raas-first-run-bin-");
    const dataDir = join(scratch("raas-first-run-data-"), "data");
    const [port, simulatorPort] = [await freePort(), await freePort()];
    const result = spawnSync(process.execPath, [START, "--no-web"], {
      cwd: ROOT,
      env: bareEnv(bin, {
        PORT: String(port),
        SIMULATOR_PORT: String(simulatorPort),
        RAAS_DATA_DIR: dataDir,
      }),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("missing bwrap (bubblewrap, the sandbox runtime)");
    expect(result.stderr).toMatch(/Install with: {2}(sudo )?apt-get install -y bubblewrap\n/);
    expect(await isListening(port)).toBe(false);
    expect(await isListening(simulatorPort)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("npm test stops before any suite runs, with the same command", () => {
    const bin = scratch("raas-first-run-bin-");
    const result = spawnSync(process.execPath, [TEST, "--passWithNoTests", "__raas_no_such_test__"], {
      cwd: ROOT,
      env: bareEnv(bin),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/\[test\] cannot run rollouts here: missing bwrap/);
    expect(result.stderr).toMatch(/apt-get install -y bubblewrap/);
    expect(result.stdout).not.toContain("[test] vitest");
  });

  it("installs the missing package with apt when running as root, saying so, then goes on", () => {
    const bin = scratch("raas-first-run-apt-");
    const log = join(bin, "apt-calls.log");
    // The package manager's double: records its calls; `install` puts bwrap on PATH.
    writeFileSync(
      join(bin, "apt-get"),
      `#!/bin/sh\necho "$*" >> ${log}\nif [ "$1" = install ]; then /bin/ln -sf /usr/bin/bwrap ${bin}/bwrap; fi\n`,
      { mode: 0o755 },
    );
    symlinkSync(process.execPath, join(bin, "node"));
    symlinkSync("/usr/bin/npx", join(bin, "npx"));
    symlinkSync("/bin/sh", join(bin, "sh"));
    // Only bubblewrap is missing: the infra and image tests' tools (which `npm test` installed)
    // stay on PATH.
    const kept = [
      "shellcheck",
      "systemd-analyze",
      "openssl",
      "mmdebstrap",
      "umoci",
      "skopeo",
      "unsquashfs",
      "siftool",
    ];
    for (const tool of kept) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const result = spawnSync(process.execPath, [TEST, "--passWithNoTests", "__raas_no_such_test__"], {
      cwd: ROOT,
      env: { ...bareEnv(bin), RAAS_NO_APT: "" },
      encoding: "utf8",
      timeout: 120_000,
    });
    if (process.getuid?.() === 0) {
      expect(result.stderr).toContain("running as root, so installing: apt-get install -y bubblewrap");
      expect(result.stderr).toContain("[test] installed bubblewrap");
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["update", "install -y bubblewrap"]);
      expect(result.stdout).toContain("[test] vitest");
      expect(result.status).toBe(0);
    } else {
      // Not root: nothing is installed; the command says sudo.
      expect(existsSync(log)).toBe(false);
      expect(result.stderr).toContain("sudo apt-get install -y bubblewrap");
      expect(result.status).toBe(1);
    }
  });
});

describe("npm start --no-web", () => {
  it("writes the example rollouts and says how to use them before the dashboard step; SIMULATOR_PORT is used; the admin token stays out of the output", async () => {
    const dataDir = scratch("raas-first-run-start-");
    const [port, simulatorPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, [START, "--no-web"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        SIMULATOR_PORT: String(simulatorPort),
        RAAS_DATA_DIR: dataDir,
        RAAS_BACKENDS: "",
        RAAS_NO_APT: "1",
        // The demo has its own test (scripts/start-demo.test.ts); here it would only add load.
        RAAS_DEMO: "0",
      },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await expect
      .poll(() => (child.exitCode === null ? stdout : `exited ${child.exitCode}: ${stderr}`), {
        timeout: 180_000,
      })
      .toContain("Stop with Ctrl-C.");
    const examples = join(dataDir, "example-rollouts.jsonl");
    const lines = readFileSync(examples, "utf8").trim().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.parse(lines[0]!)).toHaveProperty("kind");
    const usage = stdout.indexOf(`Real rollouts:  npm run raas -- submit ${examples} --wait`);
    expect(usage).toBeGreaterThan(-1);
    expect(usage).toBeLessThan(stdout.indexOf("dashboard      (not started: --no-web)"));
    expect(stdout).toContain(`SIMULATOR at http://127.0.0.1:${simulatorPort}`);
    // The admin token is saved owner-only and shown on a terminal alone: this output (start's, the
    // server's and the simulator's, as `npm start > log 2>&1` would write it) never holds it.
    const tokenFile = join(dataDir, "admin-token");
    const token = readFileSync(tokenFile, "utf8").trim();
    expect(token).toMatch(/^raas_admin_\S{20,}$/);
    expect(stdout).toContain(`admin token    saved in ${tokenFile}`);
    expect(`${stdout}${stderr}`).not.toContain(token);
    expect((await fetch(`http://127.0.0.1:${simulatorPort}/health`)).status).toBe(200);
    process.kill(-child.pid!, "SIGTERM");
    await new Promise((resolveExit) => child.once("exit", resolveExit));
  }, 240_000);

  it("rejects a SIMULATOR_PORT that is no port, in one line", () => {
    const result = spawnSync(process.execPath, [START, "--no-web"], {
      cwd: ROOT,
      env: { ...process.env, SIMULATOR_PORT: "eighty", RAAS_NO_APT: "1" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      '[start] SIMULATOR_PORT: expected a TCP port from 1 to 65535, got "eighty"',
    );
  });
});

describe("the server itself on a machine without bubblewrap", () => {
  it("refuses to start while handlers need sandboxes: one line with the install command, no port", async () => {
    const bin = scratch("raas-first-run-bin-");
    const port = await freePort();
    const result = spawnSync(process.execPath, [TSX, join(ROOT, "apps/server/src/main.ts")], {
      cwd: ROOT,
      env: { ...process.env, PATH: bin, PORT: String(port), RAAS_STORE: "memory", LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(`sandbox runtime bubblewrap is not installed (no bwrap on PATH=${bin})`);
    expect(result.stderr).toContain("apt-get install -y bubblewrap");
    expect(await isListening(port)).toBe(false);
  });

  it("starts for diagnostic jobs only when no handler needs a sandbox", async () => {
    const bin = scratch("raas-first-run-bin-");
    await expect(startServer({ port: 0, logLevel: "silent", sandbox: { searchPath: bin } })).rejects.toThrow(
      SandboxUnavailableError,
    );
    const running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      sandbox: { searchPath: bin },
    });
    try {
      expect(running.engine.handlerKinds()).toEqual(["sleep"]);
    } finally {
      await running.close({ graceMs: 0 });
    }
  });
});
