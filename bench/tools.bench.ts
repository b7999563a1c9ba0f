// `npm run bench -- tools [--iterations 200] [--creates 30] [--idle 100]`: the bash tool in a
// bubblewrap sandbox (host client → Unix socket → execution server → pty → back) against
// `bash -c` per command and a tmux send-keys + capture-pane polling baseline (ProRL's old
// approach); plus sandbox create→ready latency and the memory of idle sandboxes.

import { execFile, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BubblewrapRuntime, findExecutable, type ManagedSandbox } from "@raas/sandbox";
import type { Bench, BenchReport, BenchRow } from "./bench.types";
import { median, percentile } from "./stats";
import { targetOf } from "./targets/bench-targets";
import { meetsTarget } from "./targets/target-verdict";

/** 1-minute load average: the other work on this machine shifts every figure here. */
const loadAverage = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

const run = promisify(execFile);
const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const COMMANDS: Record<string, string> = {
  true: "true",
  echo: "echo hello",
  ls: "ls -R tree",
  cat: "cat big.txt",
};

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? Number(args[at + 1]) : fallback;
}

/** A small tree and a 100 KB file, identical in the sandbox workspace and the host directory. */
function workspaceFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const dir of ["a", "b", "c"])
    for (let i = 0; i < 5; i += 1) files[`tree/${dir}/file-${i}.txt`] = `${dir}${i}\n`;
  const line = `${"x".repeat(99)}\n`;
  files["big.txt"] = line.repeat(1_000); // 100_000 bytes
  return files;
}

async function timeEach(iterations: number, warmup: number, once: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await once();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const startedAt = performance.now();
    await once();
    samples.push(performance.now() - startedAt);
  }
  return samples;
}

function bashC(command: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

/** tmux baseline: send-keys, then poll capture-pane until the completion marker shows up. */
async function startTmux(cwd: string) {
  const tmux = findExecutable("tmux", SEARCH_PATH);
  if (!tmux) throw new Error("the tmux baseline needs tmux: run `apt-get install -y tmux`");
  const socket = `raas-bench-${process.pid}`;
  const t = (...args: string[]) => run(tmux, ["-L", socket, ...args], { cwd, maxBuffer: 16 * 1024 * 1024 });
  await t(
    "new-session",
    "-d",
    "-s",
    "bench",
    "-x",
    "200",
    "-y",
    "50",
    "-c",
    cwd,
    "/bin/bash --norc --noprofile",
  );
  await t("set-option", "-t", "bench", "history-limit", "5000");
  let counter = 0;
  return {
    async runCommand(command: string): Promise<void> {
      counter += 1;
      // The quotes split the marker in the echoed command line, so only the output matches it.
      await t("send-keys", "-t", "bench", `${command}; echo __DO""NE_${counter}__`, "Enter");
      const marker = `__DONE_${counter}__`;
      for (;;) {
        const { stdout } = await t("capture-pane", "-p", "-J", "-S", "-3000", "-t", "bench");
        if (stdout.includes(marker)) break;
      }
    },
    async clear(): Promise<void> {
      await t("send-keys", "-t", "bench", "clear", "Enter");
      await t("clear-history", "-t", "bench");
    },
    close: () => t("kill-server").catch(() => undefined),
  };
}

/** Proportional set size (shared pages split among sharers) of a process, in bytes. */
function pssBytes(pid: number): { pss: number; rss: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
    return { pss: kb("Pss") * 1024, rss: kb("Rss") * 1024 };
  } catch {
    return { pss: 0, rss: 0 };
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000;

const bench: Bench = {
  name: "tools",
  description:
    "bash tool via bubblewrap sandbox (full socket path) vs `bash -c` vs tmux send-keys+capture-pane; create→ready; idle memory",
  async run(args: string[]): Promise<BenchReport> {
    const iterations = option(args, "iterations", 200);
    const tmuxIterations = option(args, "tmux-iterations", 100);
    const creates = option(args, "creates", 30);
    const idleCount = option(args, "idle", 100);
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("the tools bench needs bubblewrap: run `apt-get install -y bubblewrap`");

    const summary: BenchReport["summary"] = {};
    const baseDir = mkdtempSync(join(tmpdir(), "raas-bench-tools-"));
    chmodSync(baseDir, 0o755); // sandboxes run as an unprivileged uid and must reach their directories
    const hostDir = join(baseDir, "host-workspace");
    const files = workspaceFiles();
    for (const [path, contents] of Object.entries(files)) {
      mkdirSync(join(hostDir, path, ".."), { recursive: true });
      writeFileSync(join(hostDir, path), contents);
    }
    // Output budget above 100 KB, so `cat` returns the whole file like the baselines do.
    summary["load average (1 min) at start"] = loadAverage();
    const runtime = new BubblewrapRuntime({
      bwrapPath,
      baseDir: join(baseDir, "sandboxes"),
      defaultLimits: { maxOutputBytes: 256 * 1024 },
    });
    const rows: BenchRow[] = [];
    const tmux = await startTmux(hostDir);
    try {
      const sandbox = await runtime.create({ files });
      const medians: Record<string, { sandbox: number; bashC: number; tmux: number }> = {};
      for (const [label, command] of Object.entries(COMMANDS)) {
        const check = await sandbox.runTool("bash", { command });
        if (check.isError || check.truncated)
          throw new Error(`bench command ${command} failed: ${check.output.slice(0, 200)}`);
        const sandboxSamples = await timeEach(iterations, 20, async () => {
          await sandbox.runTool("bash", { command });
        });
        const bashSamples = await timeEach(iterations, 10, () => bashC(command, hostDir));
        const tmuxSamples = await timeEach(tmuxIterations, 5, async () => {
          await tmux.runCommand(command);
        });
        await tmux.clear();
        const tmuxMedian = median(tmuxSamples);
        medians[label] = { sandbox: median(sandboxSamples), bashC: median(bashSamples), tmux: tmuxMedian };
        for (const [method, samples] of [
          ["raas bash (bwrap, socket, pty)", sandboxSamples],
          ["bash -c per command", bashSamples],
          ["tmux send-keys + capture-pane", tmuxSamples],
        ] as const) {
          rows.push({
            name: `${label}: ${method}`,
            n: samples.length,
            median_ms: round(median(samples)),
            p95_ms: round(percentile(samples, 95)),
            ratio_to_tmux: round(median(samples) / tmuxMedian),
          });
        }
      }
      await sandbox.close();

      // Cold starts: no pool, every create() launches bwrap and the server.
      const createMs: number[] = [];
      const readyMs: number[] = [];
      const firstCallMs: number[] = [];
      const stopListening = runtime.onEvent((event) => {
        if (event.type === "ready" && typeof event.detail?.readyMs === "number")
          readyMs.push(event.detail.readyMs);
      });
      for (let i = 0; i < creates; i += 1) {
        const startedAt = performance.now();
        const created = await runtime.create({});
        createMs.push(performance.now() - startedAt);
        await created.runTool("bash", { command: "true" });
        firstCallMs.push(performance.now() - startedAt);
        await created.close();
      }
      stopListening();
      rows.push({
        name: "create→ready (runtime.create)",
        n: creates,
        median_ms: round(median(createMs)),
        p95_ms: round(percentile(createMs, 95)),
      });
      rows.push({
        name: "  of which launch→server answers",
        n: creates,
        median_ms: round(median(readyMs)),
        p95_ms: round(percentile(readyMs, 95)),
      });
      rows.push({
        name: "create→first bash result",
        n: creates,
        median_ms: round(median(firstCallMs)),
        p95_ms: round(percentile(firstCallMs, 95)),
      });

      // The same sequence through a warm pool (opt-in): create() hands out a started sandbox.
      const pooledRuntime = new BubblewrapRuntime({
        bwrapPath,
        baseDir: join(baseDir, "sandboxes"),
        warmPoolSize: 4,
      });
      await pooledRuntime.warmUp();
      const pooledMs: number[] = [];
      for (let i = 0; i < creates; i += 1) {
        const startedAt = performance.now();
        const created = await pooledRuntime.create({ files: { "task.txt": "x" } });
        pooledMs.push(performance.now() - startedAt);
        await created.runTool("bash", { command: "true" });
        await created.close();
      }
      await pooledRuntime.closeAll();
      rows.push({
        name: "create→ready, warm pool of 4 (opt-in)",
        n: creates,
        median_ms: round(median(pooledMs)),
        p95_ms: round(percentile(pooledMs, 95)),
      });

      const idle: ManagedSandbox[] = [];
      for (let i = 0; i < idleCount; i += 10) {
        idle.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(10, idleCount - i) }, () => runtime.create({})),
          )),
        );
      }
      await Promise.all(idle.map((s) => s.runTool("bash", { command: "true" })));
      let pss = 0;
      let rss = 0;
      let processes = 0;
      for (const s of idle) {
        for (const pid of s.processIds()) {
          const usage = pssBytes(pid);
          pss += usage.pss;
          rss += usage.rss;
          processes += 1;
        }
      }
      const mib = (bytes: number) => Math.round((bytes / 1024 ** 2) * 10) / 10;
      rows.push({
        name: `${idleCount} idle sandboxes: total PSS`,
        n: processes,
        total_MiB: mib(pss),
        per_sandbox_MiB: mib(pss / idleCount),
      });
      rows.push({
        name: `${idleCount} idle sandboxes: total RSS (shared counted twice)`,
        n: processes,
        total_MiB: mib(rss),
        per_sandbox_MiB: mib(rss / idleCount),
      });
      await runtime.closeAll();

      const trueMedians = medians.true!;
      summary["bash true median ms (raas)"] = round(trueMedians.sandbox);
      summary["bash true median ms (tmux)"] = round(trueMedians.tmux);
      summary["raas / tmux (true)"] = round(trueMedians.sandbox / trueMedians.tmux);
      for (const label of ["echo", "ls", "cat"])
        summary[`raas / tmux (${label})`] = round(medians[label]!.sandbox / medians[label]!.tmux);
      const met = (key: string, figure: number) => meetsTarget(targetOf("tools", key), figure);
      summary["target: true median ≤ 2 ms"] = met("bash true median ms (raas)", trueMedians.sandbox);
      summary["target: true median ≤ 1/3 tmux"] = met(
        "raas / tmux (true)",
        trueMedians.sandbox / trueMedians.tmux,
      );
      summary["create→ready median ms"] = round(median(createMs));
      summary["target: create→ready median ≤ 150 ms"] = met("create→ready median ms", median(createMs));
      summary["create→ready median ms with warm pool (opt-in)"] = round(median(pooledMs));
      summary["idle sandbox PSS MiB each"] = mib(pss / idleCount);
      summary["load average (1 min) at end"] = loadAverage();
    } finally {
      await runtime.closeAll();
      await tmux.close();
      rmSync(baseDir, { recursive: true, force: true });
    }
    return {
      bench: "tools",
      description: bench.description,
      rows,
      summary,
      config: {
        iterations,
        tmuxIterations,
        creates,
        idleCount,
        commands: COMMANDS,
        bwrapPath,
        cores: execFileSync("nproc").toString().trim(),
      },
    };
  },
};

export default bench;
