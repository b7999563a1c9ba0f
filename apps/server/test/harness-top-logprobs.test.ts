// Top-k logprobs for a harness job: a harness (standard-library Python in a real bubblewrap
// sandbox, through the job's gateway) makes two calls, the second cut at a stop string; the job
// asks for `agent.topLogprobs: 4`. The gateway asks the backend (the simulator over vLLM's HTTP
// API) for them, and the stored calls, the job's turns and the training export carry them aligned
// to the kept sampled tokens. A job that asks for none stores none.
import type { TGatewayCallRecord, TTrajectoryExport } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import { SWE_INSTANCES, type SweFixtureServer, startSweFixtureServer } from "./support/swe-fixture-server";

const ADMIN = "harness-top-logprobs-admin";
const K = 4;

const HARNESS = String.raw`
import json, os, urllib.request
base = os.environ["OPENAI_BASE_URL"].rstrip("/")
def ask(messages, extra):
    body = dict({"model": "any", "messages": messages, "max_tokens": 24}, **extra)
    request = urllib.request.Request(base + "/chat/completions", method="POST", data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "authorization": "Bearer " + os.environ["OPENAI_API_KEY"]})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)["choices"][0]["message"]
messages = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "task_id: top-k\nSay hi."}]
first = ask(messages, {})
ask(messages + [first, {"role": "user", "content": "Again."}], {"stop": [" "]})
print("harness done")
`;

describe("harness jobs keep top-k logprobs when the job asks", () => {
  let fixture: SweFixtureServer;
  let running: RunningServer;

  beforeAll(async () => {
    fixture = await startSweFixtureServer({ adminToken: ADMIN, name: "harness-top-logprobs" });
    running = fixture.running;
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  async function runHarness(agent: Record<string, unknown>): Promise<string> {
    const { job } = await running.engine.submitJob({
      kind: "harness",
      payload: {
        task: { instance: SWE_INSTANCES[0] },
        command: ["python3", "-c", HARNESS],
        timeoutMs: 120_000,
        agent,
      },
    });
    const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 300_000 });
    expect(jobs[0]?.status).toBe("completed");
    const result = (jobs[0]?.result ?? {}) as { agent?: { stopMessage?: string } };
    expect(String(result.agent?.stopMessage)).toContain("harness done");
    return job.id;
  }

  /** Each sampled token has k alternatives, most likely first, the sampled one among them. */
  function expectTopK(call: {
    responseIds: readonly number[];
    logprobs: readonly number[];
    topLogprobs?: TGatewayCallRecord["topLogprobs"] | null;
  }): void {
    expect(call.topLogprobs).toHaveLength(call.responseIds.length);
    call.responseIds.forEach((id, i) => {
      const alternatives = call.topLogprobs?.[i] ?? [];
      expect(alternatives).toHaveLength(K);
      expect(alternatives).toEqual([...alternatives].sort((a, b) => b.logprob - a.logprob));
      const sampled = alternatives.find((alt) => alt.tokenId === id);
      expect(Math.fround(sampled?.logprob ?? Number.NaN)).toBe(Math.fround(call.logprobs[i] as number));
    });
  }

  it("stores k alternatives per kept sampled token on the calls, the turns and the export", async () => {
    const jobId = await runHarness({ topLogprobs: K });

    const calls = await running.gateway.listCalls(jobId);
    expect(calls).toHaveLength(2);
    // The second answer was cut at its stop string: its alternatives are cut with its ids.
    expect(calls[1]?.finishReason).toBe("stop");
    expect(calls[1]?.responseIds.length).toBeLessThan(24);
    for (const call of calls) {
      expect(call.responseIds.length).toBeGreaterThan(0);
      expectTopK(call);
    }

    const { turns } = await running.engine.getTrajectory(jobId);
    expect(turns).toHaveLength(2);
    turns.forEach((turn, i) => {
      expectTopK(turn);
      expect(turn.topLogprobs).toEqual(calls[i]?.topLogprobs);
    });

    const response = await fetch(`${running.url}/api/v1/jobs/${jobId}/export`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(response.status).toBe(200);
    const row = (await response.json()) as TTrajectoryExport;
    expect(row.topLogprobs).toHaveLength(row.tokens.length);
    for (const [t, span] of row.turns.entries()) {
      expect(row.topLogprobs?.slice(span.start, span.end)).toEqual(turns[t]?.topLogprobs);
    }
    row.lossMask.forEach((mask, i) => {
      if (mask === 0) expect(row.topLogprobs?.[i]).toBeNull();
    });
  }, 400_000);

  it("stores none when the job asks for none", async () => {
    const jobId = await runHarness({});
    const calls = await running.gateway.listCalls(jobId);
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(call).not.toHaveProperty("topLogprobs");
    const { turns } = await running.engine.getTrajectory(jobId);
    for (const turn of turns) expect(turn.topLogprobs ?? null).toBeNull();
    expect(await running.engine.exportTrajectory(jobId)).not.toHaveProperty("topLogprobs");
  }, 400_000);
});
