// The per-job OpenAI-compatible inference gateway over real HTTP on the composed server, against
// two in-process simulators (the labelled test double for a GPU model): rendering with Qwen3's
// template and tokenizer, tool calls back as OpenAI `tool_calls`, sticky backends, streaming,
// recorded calls rebuilt into certified traces, and session tokens that die with their job.
import { createQwen3ModelFamily } from "@raas/inference";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";
import { postJson } from "./support/http-calls";

const TASK = "gw-task-1";
const policy = {
  kind: "scripted" as const,
  tasks: {
    [TASK]: {
      steps: [
        { thinking: "Look first.", toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
        {
          thinking: "Read it.",
          content: "Reading.",
          toolCalls: [{ name: "bash", arguments: { command: "cat a.txt" } }],
        },
        { thinking: "Done.", content: "The file says hello." },
      ],
    },
  },
};
const tools = [
  {
    type: "function",
    function: {
      name: "bash",
      description: "Run a shell command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  },
];
const opening = [
  { role: "system", content: "You are a careful engineer." },
  { role: "user", content: `task_id: ${TASK}\nWhat does a.txt say?` },
];

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

describe("the inference gateway on the composed server", () => {
  let running: RunningServer;
  let simulators: RunningSimulator[];

  beforeAll(async () => {
    const latency = { prefillMsPerToken: 0, decodeMsPerToken: 0 };
    simulators = await Promise.all([
      startSimulator({ policy, latency }),
      startSimulator({ policy, latency }),
    ]);
    running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      inference: {
        backends: simulators.map((simulator) => ({
          kind: "vllm" as const,
          baseUrl: simulator.url,
          modelName: null,
        })),
      },
    });
  }, 60_000);

  afterAll(async () => {
    await running?.close({ graceMs: 0 });
    await Promise.all((simulators ?? []).map((simulator) => simulator.close()));
  });

  /** A running job (the diagnostic sleep handler, RUN for ten minutes) and its gateway base URL. */
  async function openJob() {
    const { job } = await running.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const session = running.gateway.openSession(job.id);
    return { jobId: job.id, base: `${running.url}/gateway/${session.token}/v1`, token: session.token };
  }

  it("runs a tool-calling conversation token-in/token-out and certifies its single chain", async () => {
    const { jobId, base } = await openJob();
    const messages: Json[] = [...opening];
    const answers: Json[] = [];
    for (const toolOutput of ["a.txt\nb.txt", "hello", null]) {
      const { status, body } = await postJson(`${base}/chat/completions`, { model: "any", messages, tools });
      expect(status).toBe(200);
      answers.push(body);
      const message = body.choices[0].message;
      messages.push(message);
      if (toolOutput === null) break;
      for (const call of message.tool_calls)
        messages.push({ role: "tool", tool_call_id: call.id, content: toolOutput });
    }
    const [first, second, third] = answers;
    expect(first.object).toBe("chat.completion");
    expect(first.choices[0].finish_reason).toBe("tool_calls");
    expect(first.choices[0].message).toMatchObject({
      role: "assistant",
      content: null,
      reasoning_content: "Look first.",
      tool_calls: [{ type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
    });
    expect(second.choices[0].message).toMatchObject({
      content: "Reading.",
      tool_calls: [{ function: { name: "bash", arguments: '{"command":"cat a.txt"}' } }],
    });
    expect(third.choices[0]).toMatchObject({
      finish_reason: "stop",
      message: { content: "The file says hello." },
    });
    expect(first.model).toBe(running.defaultModelName);

    const calls = await running.gateway.buildTraces(jobId).then((traces) => traces);
    expect(calls.certificate).toMatchObject({
      isCertified: true,
      callCount: 3,
      chainCount: 1,
      callsMerged: 2,
    });
    const [chain] = calls.chains;
    // The prompt is exactly Qwen3's template over the opening messages, with the real tokenizer.
    const family = createQwen3ModelFamily();
    const openingText = family.renderPrompt(
      opening.map((message) => ({ role: message.role as "system" | "user", content: message.content })),
      {
        tools: [
          { name: "bash", description: "Run a shell command", parameters: tools[0]!.function.parameters },
        ],
      },
    );
    expect(chain?.tokens.slice(0, chain.promptLength)).toEqual(family.tokenizer.encode(openingText));
    expect(chain?.spans).toHaveLength(3);
    const sampled = chain?.lossMask.filter((bit) => bit === 1).length;
    expect(sampled).toBe(answers.reduce((sum, answer) => sum + answer.usage.completion_tokens, 0));
    // Observations in between are the template's tokens for the tool results (mask 0).
    const between = chain!.tokens.slice(chain!.spans[0]!.end, chain!.spans[1]!.start);
    expect(family.tokenizer.decode(between)).toBe(
      "\n<|im_start|>user\n<tool_response>\na.txt\nb.txt\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
    );
    // Each call's own time is measured on a monotonic clock apart from generation: never 0.
    const records = await running.gateway.listCalls(jobId);
    expect(records.map((record) => record.overheadMs > 0 && Number.isFinite(record.overheadMs))).toEqual([
      true,
      true,
      true,
    ]);
    // Sticky: every call of the job went to one backend.
    expect(new Set(chain?.spans.map((span) => span.backendId)).size).toBe(1);
    expect(chain?.logprobs.every((logprob, i) => (chain.lossMask[i] === 1) === (logprob !== null))).toBe(
      true,
    );

    // The same traces over REST (what the trajectory page and trainers read).
    const rest = await fetch(`${running.url}/api/v1/jobs/${jobId}/gateway-traces`);
    expect(rest.status).toBe(200);
    expect(await rest.json()).toEqual(JSON.parse(JSON.stringify(calls)));
    const unknown = await fetch(`${running.url}/api/v1/jobs/job_nope/gateway-traces`);
    expect(unknown.status).toBe(404);
  });

  it("streams a completion as chat.completion.chunk events", async () => {
    const { base } = await openJob();
    const { status, text } = await postJson(`${base}/chat/completions`, {
      messages: opening,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(status).toBe(200);
    const events = text
      .split("\n\n")
      .filter((block) => block.startsWith("data: "))
      .map((block) => block.slice("data: ".length));
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice: Json) => choice.delta));
    expect(deltas[0]).toEqual({ role: "assistant", content: "" });
    expect(deltas.find((delta) => delta.tool_calls)?.tool_calls[0]).toMatchObject({
      index: 0,
      function: { name: "bash", arguments: '{"command":"ls"}' },
    });
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe(
      "tool_calls",
    );
    expect(chunks.at(-1).usage.completion_tokens).toBeGreaterThan(0);
  });

  it("certifies a break where the harness rewrote history, at the first changed token", async () => {
    const { jobId, base } = await openJob();
    const first = await postJson(`${base}/chat/completions`, { messages: opening, tools });
    const answer = first.body.choices[0].message;
    const edited = [opening[0], { ...opening[1], content: `task_id: ${TASK}\nWhat does b.txt say?` }, answer];
    const toolResult = { role: "tool", tool_call_id: answer.tool_calls[0].id, content: "x" };
    const second = await postJson(`${base}/chat/completions`, { messages: [...edited, toolResult], tools });
    expect(second.status).toBe(200);
    const traces = await running.gateway.buildTraces(jobId);
    expect(traces.certificate.isCertified).toBe(false);
    expect(traces.chains).toHaveLength(2);
    const [broken] = traces.certificate.breaks;
    const family = createQwen3ModelFamily();
    const firstPrompt = traces.chains[0]!.tokens.slice(0, traces.chains[0]!.promptLength);
    // The break sits inside the user message, at the token " a" that became " b".
    expect(broken).toMatchObject({ chainIndex: 0, newChainIndex: 1, region: "prompt", callSeq: 1 });
    expect(family.tokenizer.decode(firstPrompt.slice(0, broken!.position))).toMatch(/\nWhat does$/);
  });

  it("keeps interleaved sub-agents apart and breaks a truncated history where the dropped turns began", async () => {
    const { jobId, base } = await openJob();
    const subTask = [
      { role: "system", content: "You are a sub-agent that reads files." },
      { role: "user", content: `task_id: ${TASK}\nRead a.txt for the main agent.` },
    ];
    const ask = async (messages: Json[]) => {
      const { status, body } = await postJson(`${base}/chat/completions`, { messages, tools });
      expect(status).toBe(200);
      return body.choices[0].message;
    };
    const withResult = (messages: Json[], answer: Json, output: string) => [
      ...messages,
      answer,
      ...answer.tool_calls.map((call: Json) => ({ role: "tool", tool_call_id: call.id, content: output })),
    ];
    // Main and sub-agent alternate calls on one session.
    const main1 = await ask(opening);
    const sub1 = await ask(subTask);
    const main2History = withResult(opening, main1, "a.txt");
    const main2 = await ask(main2History);
    const sub2 = await ask(withResult(subTask, sub1, "hello"));
    expect(sub2.content).toBe("Reading.");
    let traces = await running.gateway.buildTraces(jobId);
    expect(traces.certificate).toMatchObject({
      isCertified: true,
      callCount: 4,
      chainCount: 2,
      callsMerged: 2,
    });
    expect(traces.chains.map((chain) => chain.callIds.length)).toEqual([2, 2]);

    // The main agent's context manager drops its first exchange, keeping the last answer.
    const truncated = withResult(opening, main2, "hello");
    await ask(truncated);
    traces = await running.gateway.buildTraces(jobId);
    expect(traces.certificate.isCertified).toBe(false);
    const [broken] = traces.certificate.breaks;
    const mainChain = traces.chains[0]!;
    // The break is where the dropped first answer began (right after the opening prompt), inside
    // the history the last call's prompt held: a changed history, not a re-rendered answer.
    expect(broken).toMatchObject({
      chainIndex: 0,
      callSeq: 4,
      region: "prompt",
      position: mainChain.promptLength,
    });
    expect(traces.chains).toHaveLength(3);
    expect(traces.chains[2]).toMatchObject({ origin: "split", fromChainIndex: 0 });
  });

  it("refuses a body nested too deep with a 400 (a harness cannot crash the recording), and serves one within the limit on a continuation", async () => {
    const { base } = await openJob();
    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const withExtra = (depth: number) =>
      `{"role":"user","content":"task_id: ${TASK}\\nWhat does a.txt say?","extra":${nested(depth)}}`;
    const send = async (messages: string[]) => {
      const response = await fetch(`${base}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"tools":${JSON.stringify(tools)},"messages":[${messages.join(",")}]}`,
      });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const deep = await send([withExtra(100_000)]);
    expect(deep.status).toBe(400);
    expect(deep.body.error.message).toMatch(/nests deeper than 64 levels/);

    // Within the limit: the first call, then one continuing it (its base compares the messages).
    const first = await send([withExtra(60)]);
    expect(first.status).toBe(200);
    const answer = JSON.stringify(first.body.choices[0].message);
    const toolResult = JSON.stringify({
      role: "tool",
      tool_call_id: first.body.choices[0].message.tool_calls[0].id,
      content: "a.txt",
    });
    const second = await send([withExtra(60), answer, toolResult]);
    expect(second.status).toBe(200);
  });

  it("answers /v1/models, refuses bad requests with 4xx, and stops a token when its job ends", async () => {
    const { jobId, base } = await openJob();
    const models = await fetch(`${base}/models`).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as Json,
    }));
    expect(models).toMatchObject({
      status: 200,
      body: { object: "list", data: [{ id: running.defaultModelName }] },
    });

    const twoChoices = await postJson(`${base}/chat/completions`, { messages: opening, n: 2 });
    expect(twoChoices.status).toBe(400);
    expect(twoChoices.body.error.message).toMatch(/n = 1/);
    const noMessages = await postJson(`${base}/chat/completions`, { messages: [] });
    expect(noMessages.status).toBe(400);
    const wrongMethod = await fetch(`${base}/chat/completions`);
    expect(wrongMethod.status).toBe(405);
    const unknown = await postJson(`${running.url}/gateway/gw_not-a-session/v1/chat/completions`, {
      messages: opening,
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toMatch(/only while its job runs/);

    await running.engine.cancel({ jobId });
    await expect.poll(async () => (await fetch(`${base}/models`)).status, { timeout: 30_000 }).toBe(401);
  });
});
