// The inference adapters and the routed pool against in-process simulators over real HTTP.

// Relative until the engine index exports the routing module.
import { StickyRouter } from "@raas/engine";
import {
  createQwen3ModelFamily,
  type InferenceFailure,
  RoutedInferencePool,
  startHealthMonitor,
  TokenConversation,
} from "@raas/inference";
import { checkTokenDrift, type TTurn } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../src/index";

const family = createQwen3ModelFamily();
const tools = [{ name: "bash", description: "Run a shell command", parameters: { type: "object" } }];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function simulator(options: Parameters<typeof startSimulator>[0] = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 }, ...options });
  cleanups.push(() => sim.close());
  return sim;
}

function pool(openDurationMs = 60_000, outageBudgetMs?: number): RoutedInferencePool {
  const created = new RoutedInferencePool({
    router: new StickyRouter({ circuitBreaker: { failureThreshold: 2, openDurationMs } }),
    retryBackoffMs: 1,
    ...(outageBudgetMs === undefined ? {} : { outageBudgetMs }),
  });
  cleanups.push(() => created.close());
  return created;
}

async function failureOf(promise: Promise<unknown>): Promise<InferenceFailure> {
  try {
    await promise;
  } catch (error) {
    return error as InferenceFailure;
  }
  throw new Error("expected the call to fail");
}

const sampling = { maxTokens: 256, temperature: 1, seed: 11 };

async function runConversation(target: RoutedInferencePool, jobId: string, turns: number): Promise<TTurn[]> {
  const conversation = TokenConversation.start(
    family,
    [
      { role: "system", content: "You are a software engineer." },
      { role: "user", content: `task_id: ${jobId}\nFix the failing test.` },
    ],
    { tools },
  );
  const recorded: TTurn[] = [];
  for (let index = 0; index < turns; index += 1) {
    const promptIds = [...conversation.promptIds];
    const result = await target.generate({ jobId, promptIds, sampling });
    expect(result.cachedPromptTokens).not.toBeNull();
    conversation.appendResponse(result.responseIds, result.logprobs);
    recorded.push({
      jobId,
      index,
      promptIds,
      responseIds: result.responseIds,
      logprobs: result.logprobs,
      backendId: result.backendId,
      weightVersion: result.weightVersion,
      cachedPromptTokens: result.cachedPromptTokens ?? 0,
      latencyMs: result.latencyMs,
      finishReason: result.finishReason,
      text: null,
      createdAtMs: Date.now(),
    });
    const parsed = family.parseResponse(family.tokenizer.decode(result.responseIds), {
      knownTools: ["bash"],
    });
    expect(parsed.toolCalls).toEqual([{ name: "bash", arguments: { command: "ls" } }]);
    conversation.appendMessages([{ role: "tool", content: `file_${index}.py\nREADME.md` }]);
  }
  return recorded;
}

describe.each(["vllm", "sglang", "nemo-rl"] as const)("%s adapter over HTTP", (kind) => {
  it("runs a multi-turn token-in/token-out conversation with prefix-cache reuse and no drift", async () => {
    const sim = await simulator();
    const target = pool();
    target.registerBackend({
      id: `${kind}-0`,
      kind,
      baseUrl: sim.url,
      modelName: sim.modelName,
      weightVersion: "w7",
    });
    const turns = await runConversation(target, `job-${kind}`, 4);
    expect(turns.map((t) => t.backendId)).toEqual(Array(4).fill(`${kind}-0`));
    expect(turns.every((t) => t.weightVersion === "w7" && t.finishReason === "stop")).toBe(true);
    expect(turns.every((t) => t.logprobs.length === t.responseIds.length)).toBe(true);
    expect(turns[0]?.cachedPromptTokens).toBe(0);
    for (const turn of turns.slice(1)) {
      const previousLength =
        turns[turn.index - 1]!.promptIds.length + turns[turn.index - 1]!.responseIds.length;
      expect(turn.cachedPromptTokens).toBe(Math.floor(previousLength / 16) * 16);
    }
    expect(checkTokenDrift(turns)).toMatchObject({ isConsistent: true, turnsChecked: 4 });
    const [view] = target.listBackends();
    expect(view).toMatchObject({
      kind,
      baseUrl: sim.url,
      inFlight: 0,
      stickyJobs: 1,
      stats: { requests: 4, errors: 0 },
    });
    expect(view!.stats.prefixCacheHitRate).toBeGreaterThan(0.5);
  });
});

describe("RoutedInferencePool over HTTP", () => {
  it("keeps jobs sticky, spreads them over backends and reads the backends' own cache counters", async () => {
    const [a, b] = [await simulator(), await simulator()];
    const target = pool();
    target.registerBackend({ id: "a", kind: "vllm", baseUrl: a.url, modelName: a.modelName });
    target.registerBackend({ id: "b", kind: "vllm", baseUrl: b.url, modelName: b.modelName });
    const jobs = await Promise.all(["j1", "j2", "j3", "j4"].map((job) => runConversation(target, job, 3)));
    for (const turns of jobs) expect(new Set(turns.map((t) => t.backendId)).size).toBe(1);
    expect(target.listBackends().map((v) => v.stickyJobs)).toEqual([2, 2]);
    await target.checkHealth();
    for (const view of target.listBackends()) {
      expect(view.lastHealthCheck?.isHealthy).toBe(true);
      expect(view.stats.reported?.hitRate).toBeGreaterThan(0.3);
    }
    for (const job of ["j1", "j2", "j3", "j4"]) target.releaseJob(job);
    expect(target.listBackends().map((v) => v.stickyJobs)).toEqual([0, 0]);
  });

  it("fails over connection failures to another backend and opens the dead backend's circuit", async () => {
    const dead = await startSimulator();
    await dead.close();
    const live = await simulator();
    const target = pool();
    target.registerBackend({ id: "dead", kind: "vllm", baseUrl: dead.url, modelName: "m" });
    target.registerBackend({ id: "live", kind: "vllm", baseUrl: live.url, modelName: "m" });
    const prompt = family.tokenizer.encode(family.renderPrompt([{ role: "user", content: "hi" }]));
    const results = await Promise.all(
      ["x1", "x2", "x3", "x4"].map((jobId) => target.generate({ jobId, promptIds: prompt, sampling })),
    );
    expect(results.map((r) => r.backendId)).toEqual(["live", "live", "live", "live"]);
    const deadView = target.listBackends().find((v) => v.id === "dead")!;
    expect(deadView.stats.errors).toBeGreaterThanOrEqual(2);
    expect(deadView).toMatchObject({ circuit: "open", inFlight: 0 });
  });

  it("retries a dropped connection on the same backend when it is the only one", async () => {
    const sim = await simulator();
    const target = pool();
    target.registerBackend({ id: "only", kind: "sglang", baseUrl: sim.url, modelName: "m" });
    sim.setFault({ kind: "drop-connection", remaining: 1 });
    const result = await target.generate({ jobId: "j", promptIds: [151_644, 872, 198, 14_990], sampling });
    expect(result.responseIds.length).toBeGreaterThan(0);
    expect(target.listBackends()[0]!.stats).toMatchObject({ requests: 2, errors: 1 });
  });

  it("does not retry HTTP errors or bad bodies, and names what was wrong", async () => {
    const sim = await simulator();
    const target = pool();
    target.registerBackend({ id: "v", kind: "vllm", baseUrl: sim.url, modelName: "m" });
    const invalid = await failureOf(target.generate({ jobId: "j", promptIds: [], sampling }));
    expect(invalid).toMatchObject({
      failure: { kind: "inference", inference: { reason: "http-status", status: 400 } },
    });
    expect(invalid.message).toMatch(/prompt/);
    expect(target.listBackends()[0]).toMatchObject({ circuit: "closed", consecutiveFailures: 0 });
    sim.setFault({ kind: "http-500", remaining: 1 });
    const status = await failureOf(target.generate({ jobId: "j", promptIds: [1, 2, 3], sampling }));
    expect(status).toMatchObject({
      failure: { kind: "inference", inference: { reason: "http-status", status: 500, backendId: "v" } },
    });
    expect(sim.snapshot().requestsSucceeded).toBe(0);
    sim.setFault({ kind: "bad-body", remaining: 1 });
    const body = await failureOf(target.generate({ jobId: "j", promptIds: [1, 2, 3], sampling }));
    expect(body).toMatchObject({ failure: { kind: "inference", inference: { reason: "bad-response" } } });
    expect(body.message).toMatch(/choices\[0\]\.token_ids is missing/);
    expect(target.listBackends()[0]).toMatchObject({ inFlight: 0, stats: { requests: 3, errors: 3 } });
  });

  it("enforces deadlines and aborts, always releasing the in-flight slot", async () => {
    const sim = await simulator();
    const target = pool();
    target.registerBackend({ id: "n", kind: "nemo-rl", baseUrl: sim.url, modelName: "m" });
    sim.setFault({ kind: "hang" });
    const late = await failureOf(
      target.generate({ jobId: "j", promptIds: [1, 2, 3], sampling, deadlineMs: Date.now() + 100 }),
    );
    expect(late).toMatchObject({ failure: { kind: "inference", inference: { reason: "deadline" } } });
    const controller = new AbortController();
    const pending = target.generate({
      jobId: "k",
      promptIds: [1, 2, 3],
      sampling,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    expect(await failureOf(pending)).toMatchObject({
      failure: { kind: "inference", inference: { reason: "aborted" } },
    });
    expect(target.listBackends()[0]).toMatchObject({ inFlight: 0, stats: { errors: 1, aborted: 1 } });
  });

  it("health checks open the circuit of an unhealthy backend and close it after recovery", async () => {
    const sim = await simulator();
    const target = pool(400, 0);
    target.registerBackend({ id: "h", kind: "vllm", baseUrl: sim.url, modelName: "m" });
    sim.setFault({ kind: "unhealthy" });
    await target.checkHealth();
    await target.checkHealth();
    expect(target.listBackends()[0]).toMatchObject({
      circuit: "open",
      lastHealthCheck: { isHealthy: false },
    });
    expect(await failureOf(target.generate({ jobId: "j", promptIds: [1, 2], sampling }))).toMatchObject({
      failure: { kind: "inference", inference: { reason: "no-backend" } },
    });
    sim.setFault(null);
    await new Promise((resolve) => setTimeout(resolve, 450));
    await target.checkHealth();
    expect(target.listBackends()[0]).toMatchObject({ circuit: "closed", consecutiveFailures: 0 });
  });

  it("the health monitor keeps checking in the background until stopped", async () => {
    const sim = await simulator();
    const target = pool();
    target.registerBackend({ id: "m", kind: "vllm", baseUrl: sim.url, modelName: "m" });
    await target.generate({ jobId: "j", promptIds: [1, 2, 3, 4], sampling });
    const monitor = startHealthMonitor(target, { intervalMs: 10 });
    while (target.listBackends()[0]?.stats.reported === null)
      await new Promise((resolve) => setTimeout(resolve, 5));
    monitor.stop();
    expect(target.listBackends()[0]).toMatchObject({
      lastHealthCheck: { isHealthy: true },
      stats: { reported: { prefixCacheQueries: 4, prefixCacheHits: 0 } },
    });
  });

  it("drains, removes and re-versions backends at run time", async () => {
    const [a, b] = [await simulator(), await simulator()];
    const target = pool();
    expect(target.registerBackend({ id: "a", kind: "vllm", baseUrl: a.url, modelName: "m" }).isCreated).toBe(
      true,
    );
    const first = await target.generate({ jobId: "j", promptIds: [1, 2, 3], sampling });
    expect(first.backendId).toBe("a");
    target.registerBackend({ id: "b", kind: "vllm", baseUrl: b.url, modelName: "m", weightVersion: "v1" });
    expect(target.drainBackend("a")).toMatchObject({ lifecycle: "drained", inFlight: 0 });
    const moved = await target.generate({ jobId: "j", promptIds: [1, 2, 3], sampling });
    expect(moved).toMatchObject({ backendId: "b", weightVersion: "v1" });
    expect(target.setWeightVersion("b", "v2").weightVersion).toBe("v2");
    expect((await target.generate({ jobId: "j", promptIds: [1, 2, 3], sampling })).weightVersion).toBe("v2");
    expect(target.removeBackend("a").id).toBe("a");
    expect(target.listBackends().map((v) => v.id)).toEqual(["b"]);
    expect(() => target.drainBackend("a")).toThrow(/No backend with id a/);
    expect(() =>
      target.registerBackend({ id: "c", kind: "vllm", baseUrl: "gpu-3:8000", modelName: "m" }),
    ).toThrow(/baseUrl must be an http/);
  });
});
