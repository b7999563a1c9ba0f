// `raas runs list` and `raas steps show` against the real server (a child process, memory
// store): a run with one zero-variance step of sleep tasks, read back as a table and as JSON.
import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TRun, TStep } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, startServer, TSX } from "./support/start-server";

const TRAINER = "cli-steps-trainer-token";
let server: ChildProcess;
let url: string;
let dir: string;
let run: TRun;
let step: TStep;

function raas(args: string[]) {
  const result = spawnSync(process.execPath, [TSX, join(REPO_ROOT, "apps/cli/src/main.ts"), ...args], {
    cwd: dir,
    env: { ...process.env, RAAS_URL: url, RAAS_TOKEN: TRAINER, RAAS_DATA_DIR: join(dir, ".raas") },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TRAINER}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-steps-"));
  ({ server, url } = await startServer(dir, { RAAS_STORE: "memory", RAAS_TRAINER_TOKEN: TRAINER }));
  ({ run } = await post<{ run: TRun }>("/api/v1/runs", { name: "cli-run", model: "sleep-model" }));
  const task = (taskId: string, successRate: number) => ({
    taskId,
    kind: "sleep",
    payload: { initMs: 5, runMs: 20, evalMs: 5, successRate },
  });
  ({ step } = await post<{ step: TStep }>("/api/v1/steps", {
    runId: run.id,
    tasks: { type: "inline", tasks: [task("solved", 1), task("unsolved", 0)] },
    groupSize: 2,
    groups: 2,
    dynamicSampling: { policy: "none" },
  }));
  for (let afterSeq = 0; ; ) {
    const response = await fetch(`${url}/api/v1/steps/${step.id}/next?afterSeq=${afterSeq}&timeoutMs=20000`);
    const next = (await response.json()) as { step: TStep; groups: Array<{ seq: number }>; done: boolean };
    afterSeq = next.groups.at(-1)?.seq ?? afterSeq;
    step = next.step;
    if (next.done) break;
  }
}, 120_000);

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe("raas runs / raas steps", () => {
  it("lists the run as a table and as JSON", () => {
    const listed = raas(["runs", "list"]);
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^id\s+name\s+model\s+dataset\s+status\s+steps\s+created/);
    expect(listed.stdout).toMatch(new RegExp(`${run.id}\\s+cli-run\\s+sleep-model\\s+-\\s+active\\s+1\\s`));
    const json = JSON.parse(raas(["runs", "list", "--json", "--limit", "5"]).stdout) as { items: TRun[] };
    expect(json.items.map((r) => r.id)).toEqual([run.id]);
    expect(raas(["runs", "list", "--limit", "0"]).stderr).toMatch(/--limit must be a whole number/);
  });

  it("shows a step's progress, rewards and waste ledger", () => {
    expect(step.status).toBe("completed");
    const shown = raas(["steps", "show", step.id]);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`step ${step.id} (run ${run.id}, index 0): completed`);
    expect(shown.stdout).toMatch(/groups\s+2\/2 handed out, 2 samples each, policy none/);
    expect(shown.stdout).toMatch(
      /rewards\s+mean 0\.500 .* min 0\.000 max 1\.000, solved 0\.500 \(4 trajectories\)/,
    );
    expect(shown.stdout).toMatch(/cause\s+jobs\s+rolloutSeconds\s+generatedTokens/);
    expect(shown.stdout).toMatch(/zeroVariance\s+0\s/);
    const json = JSON.parse(raas(["steps", "show", step.id, "--json"]).stdout) as TStep;
    expect(json).toMatchObject({ id: step.id, status: "completed", stats: { groupsDelivered: 2 } });
  });

  it("says why a step failed: its infrastructure failures passed its budget", async () => {
    const broken = {
      taskId: "broken",
      kind: "sleep",
      payload: { initMs: 5, runMs: 5, evalMs: 5, fail: { init: { rate: 1, kind: "sandbox" } } },
    };
    const { step: failing } = await post<{ step: TStep }>("/api/v1/steps", {
      runId: run.id,
      tasks: { type: "inline", tasks: [broken, { ...broken, taskId: "broken-2" }] },
      groupSize: 2,
      groups: 1,
      maxInfraRetries: 0,
      maxJobFailures: 1,
    });
    const response = await fetch(`${url}/api/v1/steps/${failing.id}/next?afterSeq=0&timeoutMs=20000`);
    expect(((await response.json()) as { step: TStep }).step.status).toBe("failed");
    const shown = raas(["steps", "show", failing.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`index 1): failed`);
    expect(shown.stdout).toMatch(/failed\s+step .* 2 jobs failed .* past its budget of 1 .*sandbox\/init/);
  });

  it("names an unknown step and a missing id", () => {
    const unknown = raas(["steps", "show", "stp_nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: .*no step with id "stp_nope"/);
    const missing = raas(["steps", "show"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/missing step id/);
  });
});
