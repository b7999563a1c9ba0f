// A harness cannot choose the distribution its tokens are sampled from. A harness (standard-library
// Python in a real bubblewrap sandbox, through the loopback forwarder and the job's gateway) asks
// for temperature 0, its own top_p, top_k, seed, penalties and logit_bias; the backend — the
// simulator behind a recording fake backend that keeps every request body — receives the job's
// settings, and the stored gateway calls, the job's turns and every export (`GET
// /api/v1/jobs/{id}/export`, the batch's trajectories.jsonl) carry the parameters used. A job in
// `reject` mode answers the same request with a 400 naming the fields.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { type RecordingBackend, startRecordingBackend } from "./support/recording-backend";
import { SWE_INSTANCES, type SweFixtureServer, startSweFixtureServer } from "./support/swe-fixture-server";

const ADMIN = "harness-sampling-admin";

// Two calls, the second continuing the first; each first asks with the harness's own sampling and,
// when refused, prints the refusal and asks again without it.
const HARNESS = String.raw`
import json, os, urllib.error, urllib.request
base = os.environ["OPENAI_BASE_URL"].rstrip("/")
own = {"temperature": 0, "top_p": 0.1, "top_k": 5, "seed": 1, "presence_penalty": 1.5,
       "repetition_penalty": 1.3, "logit_bias": {"151643": 100}}
def ask(messages, extra):
    body = dict({"model": "any", "messages": messages, "max_tokens": 24}, **extra)
    request = urllib.request.Request(base + "/chat/completions", method="POST", data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "authorization": "Bearer " + os.environ["OPENAI_API_KEY"]})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)["choices"][0]["message"]
def ask_own(messages):
    try:
        return ask(messages, own)
    except urllib.error.HTTPError as error:
        print("refused", error.code, json.load(error)["error"]["message"])
        return ask(messages, {})
messages = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "task_id: sampling\nSay hi."}]
first = ask_own(messages)
ask_own(messages + [first, {"role": "user", "content": "Again."}])
print("harness done")
`;
const JOB_AGENT = { temperature: 0.6, topP: 0.95, topK: 20, seed: 17 };
const USED = { temperature: 0.6, topP: 0.95, topK: 20, seed: 17, maxTokens: 24 };

describe("harness jobs sample with the job's settings", () => {
  let fixture: SweFixtureServer;
  let running: RunningServer;
  let backend: RecordingBackend;

  beforeAll(async () => {
    fixture = await startSweFixtureServer({
      adminToken: ADMIN,
      name: "harness-sampling",
      backendInFront: async (url) => {
        backend = await startRecordingBackend(url);
        return backend;
      },
    });
    running = fixture.running;
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  async function rest(path: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${running.url}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });
    return { status: response.status, text: await response.text() };
  }

  async function runHarness(agent: Record<string, unknown>, batchId: string) {
    const before = backend.requests.length;
    const { job } = await running.engine.submitJob({
      kind: "harness",
      batchId,
      payload: {
        task: { instance: SWE_INSTANCES[0] },
        command: ["python3", "-c", HARNESS],
        timeoutMs: 120_000,
        agent,
      },
    });
    const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 300_000 });
    const done = jobs[0];
    expect(done?.status).toBe("completed");
    const result = (done?.result ?? {}) as { agent?: { stopMessage?: string } };
    const output = String(result.agent?.stopMessage);
    expect(output).toContain("harness done");
    return { jobId: job.id, output, received: backend.requests.slice(before) };
  }

  it("overrides a harness's temperature 0, top_p, seed and logit_bias; calls, turns and exports record what was used", async () => {
    const { jobId, output, received } = await runHarness(JOB_AGENT, "bat_sampling_override");
    expect(output).not.toContain("refused");

    // What the backend actually received: the job's settings, none of the harness's.
    expect(received).toHaveLength(2);
    for (const body of received) {
      expect(body).toMatchObject({ temperature: 0.6, top_p: 0.95, top_k: 20, seed: 17, max_tokens: 24 });
      for (const field of ["logit_bias", "presence_penalty", "repetition_penalty"]) {
        expect(body).not.toHaveProperty(field);
      }
    }

    const calls = await running.gateway.listCalls(jobId);
    expect(calls.map((call) => call.sampling)).toEqual([USED, USED]);
    expect(calls[0]?.overriddenSampling).toEqual({
      temperature: 0,
      top_p: 0.1,
      top_k: 5,
      seed: 1,
      presence_penalty: 1.5,
      repetition_penalty: 1.3,
      logit_bias: { "151643": 100 },
    });

    const { turns } = await running.engine.getTrajectory(jobId);
    expect(turns.map((turn) => turn.sampling)).toEqual([USED, USED]);

    const exported = await rest(`/api/v1/jobs/${jobId}/export`);
    expect(exported.status).toBe(200);
    const row = JSON.parse(exported.text) as { turns: { sampling: unknown }[] };
    expect(row.turns.map((turn) => turn.sampling)).toEqual([USED, USED]);

    const lines = await rest("/api/v1/batches/bat_sampling_override/trajectories.jsonl");
    expect(lines.status).toBe(200);
    const rows = lines.text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { jobId: string; turns: { sampling: unknown }[] });
    expect(rows.map((item) => item.jobId)).toEqual([jobId]);
    expect(rows[0]?.turns.map((turn) => turn.sampling)).toEqual([USED, USED]);
  }, 400_000);

  it("refuses the same request with a 400 naming the fields when the job's harnessSampling is reject", async () => {
    const { jobId, output, received } = await runHarness(
      { ...JOB_AGENT, harnessSampling: "reject" },
      "bat_sampling_reject",
    );
    expect(output).toMatch(/refused 400 .*temperature 0 \(the job's: 0\.6\)/);
    expect(output).toMatch(/logit_bias/);
    // Only the requests asked again without the harness's fields reached the backend.
    expect(received).toHaveLength(2);
    for (const body of received) expect(body).toMatchObject({ temperature: 0.6, top_p: 0.95, seed: 17 });
    const calls = await running.gateway.listCalls(jobId);
    expect(calls.map((call) => call.sampling)).toEqual([USED, USED]);
    expect(calls.every((call) => call.overriddenSampling === undefined)).toBe(true);
  }, 400_000);
});
