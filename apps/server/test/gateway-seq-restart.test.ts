// A job that keeps running across a server restart: its gateway calls continue the numbering
// stored in PostgreSQL (seq is not per-process), so no call recorded before the restart is
// overwritten, and its conversation continues the chain recorded before the restart token-in/
// token-out; a fresh RUN attempt starts its calls over. Against an in-process simulator (the
// labelled test double for a GPU model).
import type { TGatewayTraces } from "@raas/shared";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import {
  type PostgresGatewayServers,
  preparePostgresGatewayServers,
} from "./support/postgres-gateway-server";

const TASK = "gw-seq-1";
const THINKING_TASK = "gw-seq-thinking";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: { steps: [{ content: "one" }, { content: "two" }, { content: "three" }] },
    // Qwen3's template drops past turns' thinking when it renders a history afresh: a restarted
    // gateway that rendered the third call from scratch would break the chain there.
    [THINKING_TASK]: {
      steps: [
        { thinking: "Read the task first.", content: "I read it." },
        { thinking: "Now the second part.", content: "Second part done." },
        { thinking: "Wrap up.", content: "All done." },
      ],
    },
  },
};

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

describe("gateway call numbering across a server restart", () => {
  let servers: PostgresGatewayServers;
  let server: RunningServer | undefined;
  const start = () => servers.start();

  beforeAll(async () => {
    servers = await preparePostgresGatewayServers("gwseq", policy);
  }, 60_000);

  afterAll(async () => {
    await server?.close({ graceMs: 0 });
    await servers?.dispose();
  });

  const ask = async (running: RunningServer, jobId: string, question: string) => {
    const token = running.gateway.openSession(jobId).token;
    const response = await fetch(`${running.url}/gateway/${token}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: `task_id: ${TASK}\n${question}` }] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as Json).choices[0].message.content as string;
  };
  const chat = async (running: RunningServer, jobId: string, messages: Json[]) => {
    const token = running.gateway.openSession(jobId).token;
    const response = await fetch(`${running.url}/gateway/${token}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as Json).choices[0].message as Json;
  };
  const storedCalls = async (jobId: string) => {
    // A call is stored just behind its answer: a read through the server that answered waits for
    // its writes, as every reader in that process does; then the rows are read as another process would.
    await server?.gateway.listCalls(jobId);
    const client = new pg.Client({ connectionString: servers.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT seq, call_id, messages FROM "${servers.schema}".gateway_calls WHERE job_id = $1 ORDER BY seq`,
        [jobId],
      );
      return rows.map((row) => ({ seq: row.seq, id: row.call_id, question: row.messages[0].content }));
    } finally {
      await client.end();
    }
  };

  it("continues at max stored seq + 1 and keeps every earlier call", async () => {
    server = await start();
    expect(server.storeKind).toBe("postgres");
    // The job stays running (a long RUN) while the server stops and starts again.
    const { job } = await server.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    await ask(server, job.id, "first");
    await ask(server, job.id, "second");
    const before = await storedCalls(job.id);
    expect(before.map((call) => call.seq)).toEqual([0, 1]);

    await server.close({ graceMs: 0 });
    server = undefined;
    server = await start();
    const stored = await server.engine.getJob(job.id);
    expect(stored.status).not.toBe("completed");

    await ask(server, job.id, "third");
    const after = await storedCalls(job.id);
    expect(after.map((call) => call.seq)).toEqual([0, 1, 2]);
    // The calls from before the restart are the same rows, untouched.
    expect(after.slice(0, 2)).toEqual(before);
    expect(after[2]!.question).toBe(`task_id: ${TASK}\nthird`);
    const response = await fetch(`${server.url}/api/v1/jobs/${job.id}/gateway-traces`);
    expect(response.status).toBe(200);
    const traces = (await response.json()) as TGatewayTraces;
    expect(traces.certificate.callCount).toBe(3);
  }, 180_000);

  it("continues the conversation's chain recorded before the restart, token-in/token-out", async () => {
    server ??= await start();
    const { job } = await server.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const messages: Json[] = [{ role: "user", content: `task_id: ${THINKING_TASK}\nStart.` }];
    messages.push(await chat(server, job.id, messages), { role: "user", content: "Go on." });
    messages.push(await chat(server, job.id, messages), { role: "user", content: "Finish." });

    await server.close({ graceMs: 0 });
    server = undefined;
    server = await start();
    expect((await chat(server, job.id, messages)).content).toBe("All done.");

    const response = await fetch(`${server.url}/api/v1/jobs/${job.id}/gateway-traces`);
    expect(response.status).toBe(200);
    const { certificate } = (await response.json()) as TGatewayTraces;
    expect(certificate.breaks).toEqual([]);
    expect(certificate).toMatchObject({ isCertified: true, callCount: 3, chainCount: 1, callsMerged: 2 });
    const calls = await storedCalls(job.id);
    const records = await server.gateway.listCalls(job.id);
    expect(records.map((record) => record.parentCallId)).toEqual([null, calls[0]!.id, calls[1]!.id]);
    expect(records.map((record) => record.enableThinking)).toEqual([true, true, true]);
  }, 180_000);

  it("drops an earlier attempt's calls when a fresh RUN attempt starts (its harness bridge opens)", async () => {
    server ??= await start();
    const { job } = await server.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    await ask(server, job.id, "first");
    await ask(server, job.id, "second");
    expect((await storedCalls(job.id)).map((call) => call.seq)).toEqual([0, 1]);

    await server.gateway.startAttempt(job.id);
    await ask(server, job.id, "third");
    const after = await storedCalls(job.id);
    expect(after.map((call) => [call.seq, call.question])).toEqual([[0, `task_id: ${TASK}\nthird`]]);
    const response = await fetch(`${server.url}/api/v1/jobs/${job.id}/gateway-traces`);
    expect(((await response.json()) as TGatewayTraces).certificate.callCount).toBe(1);
  }, 180_000);
});
