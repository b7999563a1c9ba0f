// `raas eval swe` end to end: the real CLI (a child process) against the composed server in this
// process (memory store, swe handler over the shipped fixture bundles, real bubblewrap sandboxes)
// and an in-process simulator scripted to solve two of three instances. The CLI stores the run
// through `benchmarks.*`; `benchmarks.get/results` then return it.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSwePolicyConfig, type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";

const root = resolve(import.meta.dirname, "../../..");
const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
const SWE_DATA = fileURLToPath(new URL("../../../packages/handlers/data/swe/", import.meta.url));
const TOKEN = "eval-swe-admin";

interface Instance {
  instance_id: string;
  repo: string;
  patch: string;
}

/** Runs the CLI without blocking this process's event loop (the server answers from it). */
function raas(url: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [tsx, join(root, "apps/cli/src/main.ts"), ...args], {
      env: { ...process.env, RAAS_URL: url, RAAS_TOKEN: TOKEN, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

async function getJson(url: string) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  return { status: response.status, body: (await response.json()) as any };
}

describe("raas eval swe against the composed server and the simulator", () => {
  let server: RunningServer;
  let simulator: RunningSimulator;
  let dir: string;
  let sandboxDir: string;
  let dataset: string;
  let instances: Instance[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-eval-swe-"));
    // Its own directory: sandboxes run as another uid and need every parent searchable.
    sandboxDir = mkdtempSync(join(tmpdir(), "raas-eval-swe-sandboxes-"));
    const lines = readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(0, 3);
    instances = lines.map((line) => JSON.parse(line) as Instance);
    dataset = join(dir, "swe-mini.jsonl");
    writeFileSync(dataset, `${lines.join("\n")}\n`);
    const solved = new Set(instances.slice(0, 2).map((instance) => instance.instance_id));
    simulator = await startSimulator({
      policy: buildSwePolicyConfig(instances, solved),
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
    });
    const fromEnv = configFromEnv(
      parseServerEnv({
        RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles"),
        RAAS_SWE_TEST_TIMEOUT_MS: "20000",
        RAAS_MODEL: simulator.modelName,
        RAAS_CHAT_FORMAT: "qwen3",
      }),
    );
    server = await startServer({
      port: 0,
      logLevel: "silent",
      store: { kind: "memory" },
      auth: { adminToken: TOKEN },
      ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
      ...(fromEnv.agentHandlers !== undefined ? { agentHandlers: fromEnv.agentHandlers } : {}),
      sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
    });
  });
  afterAll(async () => {
    await server?.close({ graceMs: 100 });
    await simulator?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(sandboxDir, { recursive: true, force: true });
  });

  it("evaluates, writes predictions and report, and stores the run that benchmarks.get/results return", async () => {
    const out = join(dir, "out");
    const args = ["eval", "swe", "--dataset", dataset, "--backend", simulator.url, "--concurrency", "3"];
    const first = await raas(server.url, [...args, "--run-id", "mini-1", "--out", out, "--json"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const printed = JSON.parse(first.stdout);
    expect(printed.errors).toEqual({});
    expect(printed).toMatchObject({
      runId: "mini-1",
      stored: true,
      summary: { total: 3, resolved: 2, errors: 0 },
    });
    expect(readFileSync(join(out, "predictions.jsonl"), "utf8").trim().split("\n")).toHaveLength(3);
    expect(existsSync(printed.report)).toBe(true);

    const { body: got } = await getJson(`${server.url}/api/v1/benchmarks/mini-1`);
    expect(got.run).toMatchObject({
      id: "mini-1",
      model: simulator.modelName,
      dataset: "swe-mini",
      status: "completed",
      totalCount: 3,
      resolvedCount: 2,
      config: { backend: simulator.url, concurrency: 3 },
    });
    expect(got.run.finishedAtMs).toBeGreaterThanOrEqual(got.run.createdAtMs);

    const { body: page } = await getJson(`${server.url}/api/v1/benchmarks/mini-1/results?limit=2`);
    const { body: rest } = await getJson(
      `${server.url}/api/v1/benchmarks/mini-1/results?cursor=${encodeURIComponent(page.nextCursor)}`,
    );
    const results = [...page.items, ...rest.items];
    expect(rest.nextCursor).toBeNull();
    expect(results.map((result) => result.instanceId)).toEqual(
      instances.map((instance) => instance.instance_id).sort(),
    );
    for (const result of results) {
      const isSolved = instances.slice(0, 2).some((instance) => instance.instance_id === result.instanceId);
      expect(result.resolved, result.instanceId).toBe(isSolved);
      expect(result.jobId).toMatch(/\S/);
      expect(result.detail).toMatchObject({ emptyPatch: false, error: null });
      const failToPass = Object.values(result.failToPass ?? {});
      expect(failToPass.length).toBeGreaterThan(0);
      expect(failToPass.every((outcome) => outcome === "PASSED")).toBe(isSolved);
    }
    // Each stored result points at the job that produced it.
    const { body: job } = await getJson(`${server.url}/api/v1/jobs/${results[0].jobId}`);
    expect(job).toMatchObject({ kind: "swe", status: "completed", metadata: { benchmarkRunId: "mini-1" } });

    // The same run id resumes: no job runs again, the stored run keeps its three results.
    const again = await raas(server.url, [...args, "--run-id", "mini-1", "--out", out]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("resuming stored run mini-1 (3 results stored so far)");
    expect(again.stdout).toContain("resolved 2/3");
    expect(again.stdout).toContain("stored run:  mini-1");
    const { body: resumed } = await getJson(`${server.url}/api/v1/benchmarks/mini-1`);
    expect(resumed.run).toMatchObject({ totalCount: 3, resolvedCount: 2, status: "completed" });
    expect((await server.engine.listJobs({ kind: "swe", limit: 50 })).items).toHaveLength(3);
  }, 300_000);

  it("refuses a run id taken by another model's run with one readable line", async () => {
    await server.benchmarks.createRun({
      id: "taken-1",
      model: "other/model",
      dataset: "swe-mini",
      split: null,
      status: "completed",
      config: null,
      createdAtMs: 1,
    });
    const taken = await raas(server.url, [
      "eval",
      "swe",
      "--dataset",
      dataset,
      "--backend",
      simulator.url,
      "--run-id",
      "taken-1",
      "--out",
      join(dir, "taken"),
    ]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(
      /^error: run id "taken-1" is taken by a run of other\/model on swe-mini; pass another --run-id$/m,
    );
    expect(existsSync(join(dir, "taken"))).toBe(false);
  });
});
