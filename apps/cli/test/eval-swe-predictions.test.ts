// `raas eval swe --predictions` end to end: the real CLI against a real server (child processes,
// memory store, the swe handler over the shipped fixture bundles, real bubblewrap sandboxes). No
// rollout runs: each prediction is graded as it is, and the run is stored and written in
// SWE-bench's formats. Resuming the run retries the instance that errored.
import type { ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "./support/run-cli";
import { REPO_ROOT, startServer } from "./support/start-server";

const root = REPO_ROOT;
const SWE_DATA = join(root, "packages/handlers/data/swe");
const ADMIN = "cli-eval-admin-token";
const MODEL = "acme/patcher-v1";
let server: ChildProcess;
let url: string;
let dir: string;

function raas(args: string[]): Promise<CliRun> {
  return runCli(args, { cwd: dir, env: { RAAS_URL: url, RAAS_TOKEN: ADMIN } });
}

const instancesById = () => {
  const lines = ["instances.jsonl", "edge-instances.jsonl"].flatMap((file) =>
    readFileSync(join(SWE_DATA, file), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== ""),
  );
  return new Map(
    lines.map((line) => [JSON.parse(line).instance_id as string, { line, ...JSON.parse(line) }]),
  );
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-eval-"));
  // Sandboxes run as another uid: their base directory's parents must be searchable.
  chmodSync(dir, 0o755);
  ({ server, url } = await startServer(dir, {
    RAAS_STORE: "memory",
    RAAS_ADMIN_TOKEN: ADMIN,
    RAAS_MODEL: "Qwen/Qwen3-8B",
    RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles"),
    RAAS_SWE_TEST_TIMEOUT_MS: "30000",
  }));
});

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe("raas eval swe --predictions", () => {
  it("grades a predictions file without rollouts, writes SWE-bench's files, stores the run and resumes it", async () => {
    const all = instancesById();
    const ids = {
      gold: "raas-fixtures__tinystats-1",
      empty: "raas-fixtures__spans-12",
      wrong: "raas-fixtures__slugkit-7",
      error: "raas-fixtures__depless-6",
      missing: "raas-fixtures__lrukit-21",
    };
    const dataset = join(dir, "mini.jsonl");
    writeFileSync(
      dataset,
      `${Object.values(ids)
        .map((id) => all.get(id)?.line)
        .join("\n")}\n`,
    );
    const prediction = (id: string, patch: string | null) =>
      JSON.stringify({ instance_id: id, model_name_or_path: MODEL, model_patch: patch });
    const predictions = join(dir, "preds.jsonl");
    writeFileSync(
      predictions,
      [
        prediction(ids.gold, all.get(ids.gold)?.patch),
        prediction(ids.empty, ""),
        // Another instance's gold patch: applies nowhere here.
        prediction(ids.wrong, all.get(ids.gold)?.patch),
        prediction(ids.error, all.get(ids.error)?.patch),
      ].join("\n"),
    );
    const out = join(dir, "out");
    const args = [
      "eval",
      "swe",
      "--dataset",
      dataset,
      "--predictions",
      predictions,
      "--run-id",
      "p1",
      "--out",
      out,
    ];
    const first = await raas([...args, "--json"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const printed = JSON.parse(first.stdout);
    expect(printed).toMatchObject({
      runId: "p1",
      stored: true,
      summary: { total: 5, resolved: 1, errors: 1 },
    });
    expect(printed.errors[ids.error]).toMatch(/^eval in eval: none of the listed tests/);

    const summaryPath = join(out, "acme__patcher-v1.p1.json");
    expect(printed.report).toBe(summaryPath);
    expect(JSON.parse(readFileSync(summaryPath, "utf8"))).toEqual({
      total_instances: 5,
      submitted_instances: 4,
      completed_instances: 2,
      resolved_instances: 1,
      unresolved_instances: 1,
      empty_patch_instances: 1,
      error_instances: 1,
      completed_ids: [ids.wrong, ids.gold].sort(),
      incomplete_ids: [ids.missing],
      empty_patch_ids: [ids.empty],
      submitted_ids: [ids.error, ids.wrong, ids.empty, ids.gold].sort(),
      resolved_ids: [ids.gold],
      unresolved_ids: [ids.wrong],
      error_ids: [ids.error],
      schema_version: 2,
    });
    const logs = join(out, "logs/run_evaluation/p1/acme__patcher-v1");
    expect(JSON.parse(readFileSync(join(logs, ids.gold, "report.json"), "utf8"))).toMatchObject({
      [ids.gold]: {
        patch_is_None: false,
        patch_exists: true,
        patch_successfully_applied: true,
        resolved: true,
      },
    });
    expect(JSON.parse(readFileSync(join(logs, ids.wrong, "report.json"), "utf8"))).toEqual({
      [ids.wrong]: {
        patch_is_None: false,
        patch_exists: true,
        patch_successfully_applied: false,
        resolved: false,
      },
    });
    expect(existsSync(join(logs, ids.empty))).toBe(false);
    expect(existsSync(join(logs, ids.error))).toBe(false);

    // Resuming: the graded instances are not run again; the errored one is retried (and errs again).
    const again = await raas([...args]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("resuming stored run p1");
    expect(again.stdout).toContain("resolved 1/5");
    const headers = { authorization: `Bearer ${ADMIN}` };
    const jobs = (await (await fetch(`${url}/api/v1/jobs?kind=swe&limit=50`, { headers })).json()) as {
      items: Array<{ jobKey: string }>;
    };
    expect(jobs.items.map((job) => job.jobKey).sort()).toEqual(
      [
        `swe-eval:p1:${ids.error}`,
        `swe-eval:p1:${ids.error}#2`,
        `swe-eval:p1:${ids.gold}`,
        `swe-eval:p1:${ids.wrong}`,
      ].sort(),
    );
    const results = (await (await fetch(`${url}/api/v1/benchmarks/p1/results`, { headers })).json()) as {
      items: Array<{
        instanceId: string;
        resolved: boolean;
        detail: { attempt?: number; emptyPatch?: boolean };
      }>;
    };
    expect(results.items.map((r) => r.instanceId)).toEqual(
      [ids.error, ids.wrong, ids.empty, ids.gold].sort(),
    );
    expect(results.items.find((r) => r.instanceId === ids.error)?.detail.attempt).toBe(2);
    expect(results.items.find((r) => r.instanceId === ids.empty)?.detail.emptyPatch).toBe(true);
  }, 300_000);
});
