// A backend that does not report a cached-token count (NeMo-RL /generate sends none) leaves the
// stored turn's count unknown: null in the store and through the API, on every store the server
// runs on (memory, PGlite, PostgreSQL). The backend is the simulator behind a local HTTP server
// that drops the fields real NeMo-RL does not send (`cached_tokens`, `finish_reason`).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { StoreConfig } from "@raas/compose";
import { createJobStore } from "@raas/db";
import type { TJob, TTrajectoryExport, TTurn } from "@raas/shared";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";
import { tokenRest } from "./support/http-calls";

const DATA = fileURLToPath(new URL("../../../packages/handlers/data/", import.meta.url));
const TRAINER = "cached-trainer";
const DATABASE_URL = process.env.RAAS_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const mathTask = (taskId: string) =>
  readFileSync(join(DATA, "math.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.includes(`"${taskId}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>)[0];

/** Forwards to the simulator; strips what NeMo-RL's /generate never sends from its answers. */
async function startNemoLikeBackend(
  target: string,
): Promise<{ url: string; stripped: number; server: Server }> {
  const state = { stripped: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method ?? "GET",
        headers: { "content-type": "application/json" },
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      let text = await upstream.text();
      if (req.url === "/generate" && upstream.ok) {
        const body = JSON.parse(text) as Record<string, unknown>;
        if ("cached_tokens" in body) state.stripped += 1;
        delete body.cached_tokens;
        delete body.finish_reason;
        text = JSON.stringify(body);
      }
      res.writeHead(upstream.status, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    get stripped() {
      return state.stripped;
    },
  };
}

const schema = `raas_test_cached_${process.pid}_${Date.now().toString(36)}`;
const stores: Array<[string, (dir: string) => StoreConfig]> = [
  ["memory", () => ({ kind: "memory" })],
  ["PGlite", (dir) => ({ kind: "db", dataDir: dir })],
  ["PostgreSQL", (dir) => ({ kind: "db", dataDir: dir, databaseUrl: `${DATABASE_URL}?schema=${schema}` })],
];

describe("a backend without a cached-token count", () => {
  let simulator: RunningSimulator;
  let backend: Awaited<ReturnType<typeof startNemoLikeBackend>>;

  beforeAll(async () => {
    const policy = JSON.parse(readFileSync(join(DATA, "simulator/math-code-stem.policy.json"), "utf8"));
    simulator = await startSimulator({ policy: policy as TPolicyConfigInput, seed: 7 });
    backend = await startNemoLikeBackend(simulator.url);
  });

  afterAll(async () => {
    await new Promise((resolve) => backend?.server.close(resolve));
    await simulator?.close();
    const store = await createJobStore({ databaseUrl: DATABASE_URL, schema, migrate: false });
    await store.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await store.close();
  });

  describe.each(stores)("on the %s store", (_name, storeConfig) => {
    let server: RunningServer;
    let dir: string;
    let sandboxDir: string;
    const rest = tokenRest(() => server.url, TRAINER);

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "raas-cached-tokens-"));
      sandboxDir = mkdtempSync(join(tmpdir(), "raas-cached-tokens-sandboxes-"));
      const fromEnv = configFromEnv(
        parseServerEnv({ RAAS_BACKENDS: `nemo-rl=${backend.url}#Qwen/Qwen3-8B` }),
      );
      server = await startServer({
        port: 0,
        logLevel: "silent",
        auth: { trainerToken: TRAINER },
        store: storeConfig(join(dir, "data")),
        ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
        sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
      });
    }, 120_000);

    afterAll(async () => {
      await server?.close({ graceMs: 100 });
      rmSync(dir, { recursive: true, force: true });
      rmSync(sandboxDir, { recursive: true, force: true });
    });

    it("stores each turn's count as null and reads it back as null (trajectory and export)", async () => {
      const before = backend.stripped;
      const { job } = await rest<{ job: TJob }>("/api/v1/jobs", {
        kind: "math",
        payload: mathTask("math-001"),
      });
      let done: TJob | undefined;
      while (!done) {
        const waited = await rest<{ jobs: TJob[]; done: boolean }>("/api/v1/jobs/wait", {
          ids: [job.id],
          timeoutMs: 30_000,
        });
        if (waited.done) done = waited.jobs[0];
      }
      expect(done, JSON.stringify(done?.failure)).toMatchObject({ status: "completed", reward: 1 });
      expect(backend.stripped).toBeGreaterThan(before);

      const id = encodeURIComponent(job.id);
      const { turns } = await rest<{ turns: TTurn[] }>(`/api/v1/jobs/${id}/trajectory`);
      expect(turns.length).toBeGreaterThan(0);
      expect(turns.map((turn) => turn.cachedPromptTokens)).toEqual(turns.map(() => null));
      expect(turns.map((turn) => turn.finishReason)).toEqual(turns.map(() => "stop"));

      const exported = await rest<TTrajectoryExport>(`/api/v1/jobs/${id}/export`);
      expect(exported.turns.map((span) => span.cachedPromptTokens)).toEqual(turns.map(() => null));
      expect(exported.tokenExact).toBe(true);
    });
  });
});
