// The routed pool reads a vLLM generation as a token stream only when something reads it (tokens
// as they come, or an `abort-and-continue` weight sync's partial tokens); otherwise it asks for one
// JSON answer over the same kept-alive connections. A fake vLLM `/v1/completions` on loopback
// records what each request asked for and answers in that shape.
import type { IncomingMessage, ServerResponse } from "node:http";
import { StickyRouter } from "@raas/engine";
import { initialPolicyState, type TPolicyState } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { RoutedInferencePool } from "../src";
import { serveLoopback } from "./support/loopback-http";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const IDS = [11, 12, 13];
const LOGPROBS = [-0.5, -0.25, -0.125];

function answer(req: IncomingMessage, res: ServerResponse, body: { stream?: boolean }) {
  if (body.stream) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    IDS.forEach((id, i) => {
      const isLast = i === IDS.length - 1;
      const choice = {
        index: 0,
        text: "",
        token_ids: [id],
        logprobs: { token_logprobs: [LOGPROBS[i]], tokens: [`token_id:${id}`] },
        finish_reason: isLast ? "stop" : null,
      };
      res.write(`data: ${JSON.stringify({ choices: [choice] })}\n\n`);
    });
    res.end("data: [DONE]\n\n");
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      choices: [
        {
          index: 0,
          text: "",
          token_ids: IDS,
          logprobs: { token_logprobs: LOGPROBS, tokens: IDS.map((id) => `token_id:${id}`) },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 2, completion_tokens: IDS.length },
    }),
  );
  void req;
}

/** A fake vLLM on 127.0.0.1: `asked` holds each request's `stream` (true, or false when absent). */
async function fakeVllm() {
  const asked: boolean[] = [];
  const server = await serveLoopback((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(text) as { stream?: boolean };
      asked.push(body.stream === true);
      answer(req, res, body);
    });
  }, closers);
  return { url: server.origin, asked, connections: server.connections };
}

function poolOn(url: string): RoutedInferencePool {
  const pool = new RoutedInferencePool({ router: new StickyRouter() });
  closers.push(() => pool.close());
  pool.registerBackend({ id: "vllm-0", kind: "vllm", baseUrl: url, modelName: "m" });
  return pool;
}

const policy = (change: Partial<TPolicyState>): TPolicyState => ({
  ...initialPolicyState("default"),
  ...change,
});

const sampling = { maxTokens: 16, stopTokenIds: [0] };

describe("streaming a generation only when it is read", () => {
  it("asks a policy no weight sync can interrupt for one JSON answer, with the same ids and logprobs", async () => {
    const vllm = await fakeVllm();
    const pool = poolOn(vllm.url);
    const first = await pool.generate({ jobId: "a", promptIds: [1, 2], sampling });
    const second = await pool.generate({ jobId: "a", promptIds: [1, 2], sampling });
    expect(vllm.asked).toEqual([false, false]);
    for (const result of [first, second]) {
      expect(result.responseIds).toEqual(IDS);
      expect(result.logprobs).toEqual(LOGPROBS);
      expect(result.finishReason).toBe("stop");
    }
    // Over the pool's own kept-alive connection, as streams are.
    expect(vllm.connections()).toBe(1);
  });

  it("streams when the caller reads tokens as they come", async () => {
    const vllm = await fakeVllm();
    const pool = poolOn(vllm.url);
    const seen: number[] = [];
    const result = await pool.generate({
      jobId: "b",
      promptIds: [1, 2],
      sampling,
      onTokens: (ids) => seen.push(...ids),
    });
    expect(vllm.asked).toEqual([true]);
    expect(seen).toEqual(IDS);
    expect(result.responseIds).toEqual(IDS);
  });

  it("streams every request of a policy once a weight sync could interrupt it (a version, an owner)", async () => {
    for (const change of [{ weightVersion: 3 }, { ownerId: "token:0123456789abcdef" }]) {
      const vllm = await fakeVllm();
      const pool = poolOn(vllm.url);
      await pool.generate({ jobId: "c", promptIds: [1, 2], sampling });
      pool.applyPolicy(policy(change));
      const result = await pool.generate({ jobId: "c", promptIds: [1, 2], sampling });
      expect(vllm.asked).toEqual([false, true]);
      expect(result.responseIds).toEqual(IDS);
    }
  });
});
