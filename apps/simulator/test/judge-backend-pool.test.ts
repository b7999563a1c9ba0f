// The judge's backend pool over real HTTP against simulators playing judges (labelled test
// doubles): replies, failover past a backend that is down, and every failure as an inference one.
import { createServer } from "node:net";
import { JudgeBackendPool } from "@raas/inference";
import { failureOf } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../src/index";

const ask = (text: string) => ({
  messages: [
    { role: "system" as const, content: "Grade it." },
    { role: "user" as const, content: `Task id: ${text}\n\nanswer` },
  ],
  maxTokens: 256,
  temperature: 0,
  timeoutMs: 30_000,
});

/** A port nothing listens on (taken, then released). */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function failureDetail(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  const failure = failureOf(error) as {
    kind: string;
    cause: string;
    inference?: { reason: string; status: number | null };
  };
  return { kind: failure.kind, cause: failure.cause, ...failure.inference };
}

describe("JudgeBackendPool against simulated judges", () => {
  let judgeSim: RunningSimulator;

  beforeAll(async () => {
    judgeSim = await startSimulator({
      modelName: "sim-judge",
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
      policy: { kind: "judge", tasks: { essay: { score: 6, reasoning: "Clear but thin." } } },
    });
  });

  afterAll(async () => {
    await judgeSim?.close();
  });

  it("returns the judge's reply and the model and backend that gave it", async () => {
    const pool = new JudgeBackendPool({
      backends: [{ id: "j0", baseUrl: judgeSim.url, modelName: "sim-judge" }],
    });
    try {
      expect(await pool.complete(ask("essay"))).toEqual({
        text: "Clear but thin.\nSCORE: 6",
        model: "sim-judge",
        backendId: "j0",
      });
      expect((await pool.complete(ask("unscripted"))).text).toBe(
        "The simulated judge has no script for this task.",
      );
    } finally {
      await pool.close();
    }
  });

  it("moves a call past a judge backend that is down to the next one", async () => {
    const pool = new JudgeBackendPool({
      backends: [
        { id: "down", baseUrl: await closedPortUrl(), modelName: "sim-judge" },
        { id: "up", baseUrl: judgeSim.url, modelName: "sim-judge" },
      ],
    });
    try {
      expect((await pool.complete(ask("essay"))).backendId).toBe("up");
      const views = pool.listBackends();
      expect(views.find((b) => b.id === "down")?.lastOutageAtMs).not.toBeNull();
      // The backend that was down is now tried last.
      expect((await pool.complete(ask("essay"))).backendId).toBe("up");
    } finally {
      await pool.close();
    }
  });

  it("fails as inference (infrastructure) on a 500, a bad body, a hang past the limit, none up, none named", async () => {
    const pool = new JudgeBackendPool({
      backends: [{ id: "j0", baseUrl: judgeSim.url, modelName: "sim-judge" }],
    });
    try {
      judgeSim.setFault({ kind: "http-500", remaining: 1 });
      expect(await failureDetail(pool.complete(ask("essay")))).toMatchObject({
        kind: "inference",
        cause: "infrastructure",
        reason: "http-status",
        status: 500,
      });
      judgeSim.setFault({ kind: "bad-body", remaining: 1 });
      expect(await failureDetail(pool.complete(ask("essay")))).toMatchObject({ reason: "bad-response" });
      judgeSim.setFault({ kind: "hang", remaining: 1 });
      expect(await failureDetail(pool.complete({ ...ask("essay"), timeoutMs: 300 }))).toMatchObject({
        reason: "deadline",
      });
    } finally {
      judgeSim.setFault(null);
      await pool.close();
    }
    const down = new JudgeBackendPool({
      backends: [{ id: "down", baseUrl: await closedPortUrl(), modelName: "m" }],
    });
    expect(await failureDetail(down.complete(ask("essay")))).toMatchObject({ reason: "connection" });
    await down.close();
    const none = new JudgeBackendPool({ backends: [] });
    expect(await failureDetail(none.complete(ask("essay")))).toMatchObject({ reason: "no-backend" });
    await none.close();
  });
});
