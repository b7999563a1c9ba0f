// `environments.*` served by the composed server on the embedded PGlite store: registering the
// shipped environments by path over REST and tRPC, listing them with task counts and oracle
// checks, every caller mistake as a 4xx naming the file and field, a training step and a
// benchmark run referencing an environment by name, and the registry surviving a restart.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AppRouter } from "@raas/api";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const ENVIRONMENTS = fileURLToPath(new URL("../../../environments/", import.meta.url));
const HARBOR = join(ENVIRONMENTS, "harbor-examples");
const MATH = join(ENVIRONMENTS, "math-verify");
const TOKENS = { adminToken: "env-admin", trainerToken: "env-trainer", viewerToken: "env-viewer" };

async function call(url: string, options: { body?: unknown; token?: string } = {}) {
  const response = await fetch(url, {
    method: options.body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${options.token ?? TOKENS.adminToken}`,
      "content-type": "application/json",
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  return { status: response.status, body: (await response.json()) as any };
}

const trpc = (url: string, token: string) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${url}/trpc`, headers: { authorization: `Bearer ${token}` } })],
  });

async function trpcError(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const { data, message } = error as TRPCClientError<AppRouter>;
  return { code: String(data?.code), message };
}

const ORACLE = {
  checkedAtMs: 1_000,
  passed: 19,
  failed: 1,
  skipped: 0,
  rows: [
    {
      task: "math-verify-00",
      oracleReward: 0,
      noopReward: 0,
      verdict: "fail" as const,
      reasons: ["oracle: reward 0, expected 1"],
      seconds: 1.2,
    },
  ],
};

describe("environments.* on the embedded PGlite store", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "raas-envs-"));
  const scratch = mkdtempSync(join(tmpdir(), "raas-envs-broken-"));
  const config = { port: 0, logLevel: "silent", store: { kind: "db" as const, dataDir }, auth: TOKENS };
  let server: RunningServer;
  let api: string;

  beforeAll(async () => {
    server = await startServer(config);
    api = `${server.url}/api/v1/environments`;
  }, 120_000);
  afterAll(async () => {
    await server?.close({ graceMs: 50 });
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it("registers by path over REST and tRPC, lists with task counts, gets one, re-registers", async () => {
    const harbor = await call(api, { body: { path: HARBOR } });
    expect(harbor.status).toBe(201);
    expect(harbor.body).toMatchObject({
      created: true,
      environment: { name: "harbor-examples", kind: "harbor", path: HARBOR, taskCount: 5, oracle: null },
    });
    const admin = trpc(server.url, TOKENS.adminToken);
    const math = await admin.environments.register.mutate({ path: MATH, kind: "reward-fn" });
    expect(math).toMatchObject({
      created: true,
      environment: { name: "math-verify", kind: "reward-fn", taskCount: 20, oracle: null },
    });
    expect(math.environment.description).toContain("arithmetic");

    const listed = await call(api, { token: TOKENS.viewerToken });
    expect(listed.status).toBe(200);
    expect(
      listed.body.environments.map((e: { name: string; taskCount: number }) => [e.name, e.taskCount]),
    ).toEqual([
      ["harbor-examples", 5],
      ["math-verify", 20],
    ]);
    const viewer = trpc(server.url, TOKENS.viewerToken);
    expect((await viewer.environments.get.query({ name: "math-verify" })).environment.path).toBe(MATH);

    const again = await call(api, { body: { path: MATH, name: "math-verify" } });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
  });

  it("stores an oracle check and shows it in list and get", async () => {
    const trainer = trpc(server.url, TOKENS.trainerToken);
    const { environment } = await trainer.environments.recordOracle.mutate({
      name: "math-verify",
      oracle: ORACLE,
    });
    expect(environment.oracle).toEqual(ORACLE);
    const got = await call(`${api}/math-verify`);
    expect(got.body.environment.oracle).toEqual(ORACLE);
    const rest = await call(`${api}/harbor-examples/oracle`, {
      body: { oracle: { ...ORACLE, passed: 5, failed: 0, rows: [] } },
      token: TOKENS.trainerToken,
    });
    expect(rest.status).toBe(200);
    expect(rest.body.environment.oracle).toMatchObject({ passed: 5, failed: 0 });
  });

  it("answers 404 for an unknown name, over REST and tRPC", async () => {
    const rest = await call(`${api}/no-such-env`);
    expect(rest.status).toBe(404);
    expect(rest.body.error.message).toContain('no environment named "no-such-env"');
    const viaTrpc = await trpcError(
      trpc(server.url, TOKENS.viewerToken).environments.get.query({ name: "nope" }),
    );
    expect(viaTrpc).toMatchObject({ code: "NOT_FOUND" });
    const oracle = await call(`${api}/nope/oracle`, { body: { oracle: ORACLE }, token: TOKENS.trainerToken });
    expect(oracle.status).toBe(404);
  });

  it("refuses a bad directory with a 400 naming the file and field, and stores nothing", async () => {
    const brokenMath = join(scratch, "math-broken");
    cpSync(MATH, brokenMath, { recursive: true });
    writeFileSync(join(brokenMath, "environment.toml"), '[verifier]\ntime_limit_sec = "soon"\n');
    const math = await call(api, { body: { path: brokenMath } });
    expect(math.status).toBe(400);
    expect(math.body.error.message).toMatch(/math-broken\/environment\.toml: .*verifier\.time_limit_sec/);

    const brokenHarbor = join(scratch, "harbor-broken");
    cpSync(HARBOR, brokenHarbor, { recursive: true });
    writeFileSync(join(brokenHarbor, "log-report", "task.toml"), '[verifier]\ntimeout_sec = "long"\n');
    const viaTrpc = await trpcError(
      trpc(server.url, TOKENS.adminToken).environments.register.mutate({ path: brokenHarbor }),
    );
    expect(viaTrpc.code).toBe("VALIDATION_FAILED");
    expect(viaTrpc.message).toMatch(/log-report\/task\.toml: .*verifier\.timeout_sec/);

    const missing = await call(api, { body: { path: join(scratch, "nothing-here") } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain("not a directory on the server");
    const relative = await call(api, { body: { path: "environments/math-verify" } });
    expect(relative.status).toBe(400);
    expect(relative.body.error.message).toContain("absolute");
    const wrongKind = await call(api, { body: { path: MATH, kind: "harbor" } });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.message).toContain("holds a reward-fn environment, not harbor");
    const badName = await call(api, { body: { path: MATH, name: "../etc" } });
    expect(badName.status).toBe(400);
    const shipped = await call(api, { body: { path: MATH, name: "math" } });
    expect(shipped.status).toBe(409);
    expect(shipped.body.error.message).toContain('"math" is a dataset the server ships');
    const notAdmin = await call(api, { body: { path: MATH }, token: TOKENS.trainerToken });
    expect(notAdmin.status).toBe(403);

    const names = (await call(api)).body.environments.map((e: { name: string }) => e.name);
    expect(names).toEqual(["harbor-examples", "math-verify"]);
  });

  it("lets a training step and a benchmark run reference an environment by name", async () => {
    const datasets = await call(`${server.url}/api/v1/datasets`);
    expect(datasets.body.items).toEqual(
      expect.arrayContaining([
        { name: "harbor-examples", size: 5, kinds: ["harbor"] },
        { name: "math-verify", size: 20, kinds: ["reward-fn"] },
      ]),
    );
    const { body: created } = await call(`${server.url}/api/v1/runs`, {
      body: { name: "on-math-verify" },
      token: TOKENS.trainerToken,
    });
    const step = await call(`${server.url}/api/v1/steps`, {
      body: {
        runId: created.run.id,
        tasks: { type: "dataset", dataset: "math-verify" },
        groupSize: 1,
        groups: 1,
        dynamicSampling: { policy: "none" },
      },
      token: TOKENS.trainerToken,
    });
    expect(step.status, JSON.stringify(step.body)).toBe(201);
    const jobs = await call(`${server.url}/api/v1/jobs?kind=reward-fn`);
    expect(jobs.body.items[0]).toMatchObject({ kind: "reward-fn", payload: { environment: "math-verify" } });
    await call(`${server.url}/api/v1/steps/${step.body.step.id}/cancel`, {
      body: {},
      token: TOKENS.trainerToken,
    });

    const bench = await call(`${server.url}/api/v1/benchmarks`, {
      body: { id: "oracle-harbor-1", model: "oracle", environment: "harbor-examples" },
      token: TOKENS.trainerToken,
    });
    expect(bench.status).toBe(201);
    expect(bench.body.run).toMatchObject({
      dataset: "harbor-examples",
      config: { environment: { name: "harbor-examples", kind: "harbor", path: HARBOR } },
    });
    // Per-task rewards as `raas eval env` records them: the run's mean reward is over graded tasks.
    const recorded = await call(`${server.url}/api/v1/benchmarks/oracle-harbor-1/results`, {
      body: {
        results: [
          { instanceId: "raas-examples/log-report", resolved: true, detail: { reward: 1 } },
          { instanceId: "raas-examples/recover-csv", resolved: false, detail: { reward: 0.5 } },
          {
            instanceId: "raas-examples/serve-config",
            resolved: false,
            detail: { reward: null, error: "eval in eval: the verifier crashed" },
          },
        ],
      },
      token: TOKENS.trainerToken,
    });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    expect(recorded.body.run).toMatchObject({
      totalCount: 3,
      resolvedCount: 1,
      rewardCount: 2,
      meanReward: 0.75,
    });
    const listedRuns = await call(`${server.url}/api/v1/benchmarks?dataset=harbor-examples`);
    expect(listedRuns.body.runs).toMatchObject([{ id: "oracle-harbor-1", meanReward: 0.75 }]);
    const unknown = await call(`${server.url}/api/v1/benchmarks`, {
      body: { id: "oracle-x", model: "oracle", environment: "nope" },
      token: TOKENS.trainerToken,
    });
    expect(unknown.status).toBe(404);
    const neither = await call(`${server.url}/api/v1/benchmarks`, {
      body: { id: "oracle-y", model: "oracle" },
      token: TOKENS.trainerToken,
    });
    expect(neither.status).toBe(400);
    expect(neither.body.error.message).toContain("dataset or environment is required");
  });

  it("keeps the registry across a restart", async () => {
    await server.close({ graceMs: 50 });
    server = await startServer(config);
    const listed = await call(`${server.url}/api/v1/environments`);
    expect(listed.body.environments).toMatchObject([
      { name: "harbor-examples", oracle: { passed: 5 } },
      { name: "math-verify", oracle: ORACLE },
    ]);
  }, 120_000);
});
