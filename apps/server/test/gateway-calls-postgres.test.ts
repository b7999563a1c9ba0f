// The inference gateway's call records in PostgreSQL: a harness job's calls, and the traces and
// certificate rebuilt from them, survive a server restart (the store, not the process, holds them).
// Against an in-process simulator (the labelled test double for a GPU model).
import type { TGatewayTraces } from "@raas/shared";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import {
  type PostgresGatewayServers,
  preparePostgresGatewayServers,
} from "./support/postgres-gateway-server";

const TASK = "gw-restart-1";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: {
      steps: [
        { thinking: "Look.", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
        { thinking: "Read.", toolCalls: [{ name: "bash", arguments: { command: "cat a.txt" } }] },
        { content: "It says hello." },
      ],
    },
  },
};
const tools = [
  {
    type: "function",
    function: { name: "bash", parameters: { type: "object", properties: { command: { type: "string" } } } },
  },
];
const opening = [
  { role: "system", content: "You are a careful engineer." },
  { role: "user", content: `task_id: ${TASK}\nWhat does a.txt say?` },
];

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

describe("gateway call records on PostgreSQL", () => {
  let servers: PostgresGatewayServers;
  let server: RunningServer | undefined;
  const start = () => servers.start();

  beforeAll(async () => {
    servers = await preparePostgresGatewayServers("gwcalls", policy);
  }, 60_000);

  afterAll(async () => {
    await server?.close({ graceMs: 0 });
    await servers?.dispose();
  });

  const chat = async (base: string, messages: Json[]) => {
    const response = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages, tools }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as Json).choices[0].message;
  };
  const traces = async (jobId: string): Promise<TGatewayTraces> => {
    const response = await fetch(`${server!.url}/api/v1/jobs/${jobId}/gateway-traces`);
    expect(response.status).toBe(200);
    return (await response.json()) as TGatewayTraces;
  };

  it("serves the same traces and certificate after a restart", async () => {
    server = await start();
    expect(server.storeKind).toBe("postgres");
    const { job } = await server.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const base = `${server.url}/gateway/${server.gateway.openSession(job.id).token}/v1`;
    // Two calls that chain exactly, then one that rewrote the user's question: a break.
    const first = await chat(base, opening);
    const afterFirst = [
      ...opening,
      first,
      { role: "tool", tool_call_id: first.tool_calls[0].id, content: "a.txt" },
    ];
    const second = await chat(base, afterFirst);
    const rewritten = [opening[0], { ...opening[1], content: `task_id: ${TASK}\nWhat does b.txt say?` }];
    await chat(base, [
      ...rewritten,
      first,
      { role: "tool", tool_call_id: first.tool_calls[0].id, content: "a.txt" },
      second,
      { role: "tool", tool_call_id: second.tool_calls[0].id, content: "hello" },
    ]);
    const before = await traces(job.id);
    expect(before.certificate).toMatchObject({ isCertified: false, callCount: 3, callsMerged: 1 });
    expect(before.certificate.breaks).toHaveLength(1);
    expect(before.chains[0]!.lossMask.filter((bit) => bit === 1).length).toBeGreaterThan(0);

    // The rows are in the job store's database, not only in this process.
    const client = new pg.Client({ connectionString: servers.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT seq, prompt_tokens, octet_length(prompt_ids) AS bytes, base_seq, base_prompt_tokens
         FROM "${servers.schema}".gateway_calls WHERE job_id = $1 ORDER BY seq`,
        [job.id],
      );
      expect(rows.map((row) => row.seq)).toEqual([0, 1, 2]);
      // Each call after the first is stored on the call it answered: only the prompt ids it adds.
      expect(rows.map((row) => row.base_seq)).toEqual([null, 0, 1]);
      expect(rows[1].base_prompt_tokens).toBeGreaterThan(0);
      expect(
        rows.every((row) => Number(row.bytes) === 4 * (row.prompt_tokens - row.base_prompt_tokens)),
      ).toBe(true);
    } finally {
      await client.end();
    }

    await server.engine.cancel({ jobId: job.id });
    await server.close({ graceMs: 0 });
    server = undefined;

    server = await start();
    const after = await traces(job.id);
    expect(after).toEqual(before);
  }, 180_000);
});
