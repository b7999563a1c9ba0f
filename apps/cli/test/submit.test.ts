// `raas submit` against the real server: generated job keys (a retried submission never
// duplicates work), the summary at the end of --wait with its exit status, and JSON lines
// printed as the server acknowledges each job.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, startServer, TSX } from "./support/start-server";

const ADMIN = "cli-submit-admin-token";
const MAIN = join(REPO_ROOT, "apps/cli/src/main.ts");
let server: ChildProcess;
let url: string;
let dir: string;

function env(): NodeJS.ProcessEnv {
  return { ...process.env, RAAS_URL: url, RAAS_TOKEN: ADMIN, RAAS_DATA_DIR: join(dir, ".raas") };
}

function raas(args: string[]) {
  const result = spawnSync(process.execPath, [TSX, MAIN, ...args], {
    cwd: dir,
    env: env(),
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

type Line = { type: string; id: string; jobKey: string; created: boolean } & Record<string, unknown>;
const jsonLines = (stdout: string): Line[] =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);

function sleepJob(payload: Record<string, unknown>): string {
  return JSON.stringify({ kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1, ...payload } });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-submit-"));
  ({ server, url } = await startServer(dir, { RAAS_STORE: "memory", RAAS_ADMIN_TOKEN: ADMIN }));
});

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe("raas submit", () => {
  it("gives each line a job key from the file, so submitting it again creates nothing new", () => {
    const file = join(dir, "keys.jsonl");
    // Two identical lines are two jobs; the third says its own key.
    const same = sleepJob({ reward: 1 });
    writeFileSync(
      file,
      `${same}\n${same}\n${JSON.stringify({ kind: "sleep", jobKey: "mine", payload: {} })}\n`,
    );
    const first = jsonLines(raas(["submit", file, "--json"]).stdout);
    expect(first.map((line) => line.created)).toEqual([true, true, true]);
    expect(first[0]?.jobKey).toMatch(/^cli-[0-9a-f]{40}$/);
    expect(first[1]?.jobKey).not.toBe(first[0]?.jobKey);
    expect(first[2]?.jobKey).toBe("mine");

    const retried = jsonLines(raas(["submit", file, "--json"]).stdout);
    expect(retried.map((line) => line.created)).toEqual([false, false, false]);
    expect(retried.map((line) => line.id)).toEqual(first.map((line) => line.id));

    const again = jsonLines(raas(["submit", file, "--json", "--key-salt", "step-2"]).stdout);
    expect(again.map((line) => line.created)).toEqual([true, true, false]);
    expect(again[0]?.id).not.toBe(first[0]?.id);

    // The request as sent is part of the key: the same kind-less file under another --kind is new work.
    const kindless = join(dir, "kindless.jsonl");
    writeFileSync(kindless, `${JSON.stringify({ payload: { initMs: 1, runMs: 1, evalMs: 1 } })}\n`);
    const asSleep = jsonLines(raas(["submit", kindless, "--kind", "sleep", "--json"]).stdout);
    expect(jsonLines(raas(["submit", kindless, "--kind", "sleep", "--json"]).stdout)[0]?.id).toBe(
      asSleep[0]?.id,
    );
    const other = raas(["submit", kindless, "--kind", "nope", "--json"]);
    expect(other.stderr).toMatch(/unknown handler kind "nope"/);
  });

  it("ends --wait with completed, failed by kind and mean reward; exit 0 without infrastructure failures", () => {
    const file = join(dir, "mixed.jsonl");
    const lines = [
      sleepJob({ reward: 1 }),
      sleepJob({ reward: 0.5 }),
      sleepJob({ fail: { run: { rate: 1, kind: "agent" } } }),
    ];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const result = raas(["submit", file, "--wait"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("3 job(s): 2 completed, 1 failed (agent 1), 0 cancelled");
    expect(result.stdout).toContain("mean reward: 0.5000 over 3 scored job(s)");
  });

  it("exits non-zero when a job failed for infrastructure reasons, and says so", () => {
    const file = join(dir, "infra.jsonl");
    writeFileSync(
      file,
      `${sleepJob({ reward: 1 })}\n${sleepJob({ fail: { init: { rate: 1, kind: "sandbox" } } })}\n`,
    );
    const human = raas(["submit", file, "--wait"]);
    expect(human.code).toBe(3);
    expect(human.stdout).toContain("1 failed (sandbox 1)");
    expect(human.stdout).toContain("1 job(s) failed for infrastructure reasons");
    const json = raas(["submit", file, "--wait", "--json", "--key-salt", "json"]);
    expect(json.code).toBe(3);
    const parsed = jsonLines(json.stdout);
    expect(
      parsed
        .filter((line) => line.type === "finished")
        .map((line) => line.failureKind)
        .sort(),
    ).toEqual([null, "sandbox"]);
    expect(parsed.at(-1)).toMatchObject({
      type: "summary",
      jobs: 2,
      completed: 1,
      failedByKind: { sandbox: 1 },
      meanReward: 1,
      infrastructureFailures: 1,
    });
  });

  it("prints each acknowledged id with --json while it still waits for the jobs", async () => {
    const file = join(dir, "slow.jsonl");
    writeFileSync(file, `${sleepJob({ initMs: 600_000 })}\n`);
    const child = spawn(process.execPath, [TSX, MAIN, "submit", file, "--wait", "--json"], {
      cwd: dir,
      env: env(),
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await expect.poll(() => stdout, { timeout: 60_000 }).toContain('"type":"submitted"');
    expect(child.exitCode).toBeNull();
    const [acknowledged] = jsonLines(stdout);
    expect(raas(["jobs", "cancel", acknowledged!.id]).code).toBe(0);
    expect(await exited).toBe(0);
    expect(jsonLines(stdout).at(-1)).toMatchObject({
      type: "summary",
      cancelled: 1,
      infrastructureFailures: 0,
    });
  });
});
