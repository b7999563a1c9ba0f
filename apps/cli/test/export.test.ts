import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TTrajectoryExport } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, startServer, TSX } from "./support/start-server";

const ADMIN = "cli-export-admin-token";
let server: ChildProcess;
let url: string;
let dir: string;

function raas(args: string[]) {
  const result = spawnSync(process.execPath, [TSX, join(REPO_ROOT, "apps/cli/src/main.ts"), ...args], {
    cwd: dir,
    env: { ...process.env, RAAS_URL: url, RAAS_TOKEN: ADMIN, RAAS_DATA_DIR: join(dir, ".raas") },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-export-"));
  ({ server, url } = await startServer(dir, { RAAS_STORE: "memory", RAAS_ADMIN_TOKEN: ADMIN }));
}, 90_000);

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe("raas export against a running server", () => {
  let ids: string[] = [];

  beforeAll(async () => {
    // Submitted over REST, so this test depends only on the export command's own output.
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${url}/api/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBeLessThan(300);
      return (await response.json()) as { results: Array<{ job: { id: string } }>; done: boolean };
    };
    const jobs = [0, 1, 2, 3, 4].map((i) => ({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 1, reward: 1 },
      batchId: "cli-b",
      metadata: { i },
    }));
    ids = (await post("/jobs/batch", { jobs })).results.map((result) => result.job.id);
    expect((await post("/jobs/wait", { ids, timeoutMs: 30_000 })).done).toBe(true);
  }, 60_000);

  it("writes a batch as JSON Lines to a file, page by page, with progress and a summary on stderr", () => {
    const out = join(dir, "cli-b.jsonl");
    const result = raas(["export", "--batch", "cli-b", "--out", out, "--page-size", "2"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("batch cli-b: 2 trajectories exported, more to come");
    expect(result.stderr).toContain("batch cli-b: 4 trajectories exported, more to come");
    expect(result.stderr).toContain(`exported 5 trajectories to ${out} (5 trainable)`);
    const rows = readFileSync(out, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as TTrajectoryExport);
    expect(rows.map((row) => row.jobId).sort()).toEqual([...ids].sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        batchId: "cli-b",
        status: "completed",
        reward: 1,
        trainable: true,
        tokenExact: true,
      });
      expect(row.lossMask).toHaveLength(row.tokens.length);
    }
  });

  it("prints one job's row to stdout", () => {
    const result = raas(["export", "--job", ids[0]!]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ jobId: ids[0], metadata: { i: 0 } });
  });

  it("explains an unknown batch, a missing selector and a bad page size, exiting non-zero", () => {
    const unknown = raas(["export", "--batch", "no-such-batch"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: no job in batch "no-such-batch"/);
    const neither = raas(["export"]);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toMatch(/give exactly one of --job or --batch/);
    expect(raas(["export", "--batch", "cli-b", "--page-size", "0"]).stderr).toMatch(/--page-size must be/);
  });
});
