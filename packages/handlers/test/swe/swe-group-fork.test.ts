// The SWE handler's INIT for a group on real bubblewrap: the checkout runs once, every member works
// on its own copy, a setup that fails on the clean repository fails every member as `eval`.

import type { ChatFormat, InferencePool, Sandbox } from "@raas/engine";
import type { TSandboxEvent } from "@raas/shared";
import { failureOf } from "@raas/shared";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { AgentInitOutput } from "../../src/base/agent-handler.types";
import { createSweHandlerFactory } from "../../src/swe/swe-handler";
import type { TSwePayload } from "../../src/swe/swe-payload.schema";
import { createBundleDirRepoSource } from "../../src/swe/swe-repo-source";
import { initStageContext, sh } from "../support/init-stage";
import { createSweTestRuntime, fixtureInstance, SWE_BUNDLE_DIR } from "./support/swe-test-fixture";

const TIMEOUT_MS = 180_000;
const unused = new Proxy({}, { get: () => () => Promise.reject(new Error("not used in INIT")) });

const initContext = (jobId: string, groupId: string | null, payload: TSwePayload) =>
  initStageContext({ id: jobId, groupId }, payload);

describe("swe INIT once per group (bubblewrap)", () => {
  const { runtime, dispose } = createSweTestRuntime();
  const repoSource = createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR });
  const events: TSandboxEvent[] = [];
  runtime.onEvent((event) => events.push(event));
  const prepareTemplate = vi.spyOn(runtime, "prepareTemplate");
  const handler = createSweHandlerFactory({ repoSource })({
    sandboxRuntime: runtime,
    inference: unused as InferencePool,
    chatFormat: unused as ChatFormat,
    defaults: { groupFork: { graceMs: 50 } },
  });
  afterAll(async () => {
    await repoSource.close();
    await dispose();
  });

  it(
    "checks out once; each member has the repository at base_commit and its own changes only",
    async () => {
      const instance = fixtureInstance("raas-fixtures__tinystats-1");
      const payload = handler.payloadSchema.parse({ instance });
      const members = ["m0", "m1", "m2"].map((id) => initContext(id, "group-tinystats", payload));
      const inits = (await Promise.all(members.map((m) => handler.init(m.ctx)))) as AgentInitOutput<{
        repoDir: string;
      }>[];
      expect(prepareTemplate).toHaveBeenCalledTimes(1);
      const created = events.filter((event) => event.type === "created");
      // One sandbox per member: the one that ran the checkout is kept running as its preparer's own.
      expect(created).toHaveLength(3);
      const [a, b, c] = inits.map((init) => init.sandbox) as [Sandbox, Sandbox, Sandbox];
      expect(inits.map((init) => init.setup.repoDir)).toEqual(Array(3).fill("/workspace/tinystats"));
      for (const sandbox of [a, b, c]) {
        expect((await sh(sandbox, "cd tinystats && git rev-parse HEAD")).trim()).toBe(instance.base_commit);
        expect(await sh(sandbox, "cd tinystats && git status --porcelain")).toBe("");
      }
      await sh(
        a,
        "cd tinystats && echo '# mine' >> tinystats/core.py && rm tinystats/__init__.py && chmod 600 tinystats/core.py",
      );
      expect(await sh(b, "cd tinystats && stat -c %a tinystats/core.py && ls tinystats/__init__.py")).toBe(
        "644\ntinystats/__init__.py\n",
      );
      expect(await sh(a, "cd tinystats && git status --porcelain")).not.toBe("");
      expect(await sh(b, "cd tinystats && git status --porcelain")).toBe("");
      expect(await sh(c, "cd tinystats && git status --porcelain")).toBe("");
      await Promise.all(members.map((m) => m.endJob()));
      expect([a, b, c].map((sandbox) => sandbox.state)).toEqual(["closed", "closed", "closed"]);
      const deadline = Date.now() + 30_000;
      while (runtime.heldTemplates.length > 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(runtime.heldTemplates).toHaveLength(0);
    },
    TIMEOUT_MS,
  );

  it(
    "a setup step that fails on the clean repository fails every member as eval, running once",
    async () => {
      const instance = fixtureInstance("raas-fixtures__tinystats-1");
      const payload = handler.payloadSchema.parse({ instance, spec: { setupCommands: ["exit 3"] } });
      prepareTemplate.mockClear();
      const members = ["f0", "f1", "f2"].map((id) => initContext(id, "group-broken", payload));
      const outcomes = await Promise.allSettled(members.map((m) => handler.init(m.ctx)));
      expect(outcomes.map((o) => (o.status === "rejected" ? failureOf(o.reason)?.kind : "ok"))).toEqual([
        "eval",
        "eval",
        "eval",
      ]);
      expect(prepareTemplate).toHaveBeenCalledTimes(1);
      // The members' own sandboxes (started beside the INIT) are closed before INIT fails.
      expect(runtime.openSandboxes).toHaveLength(0);
    },
    TIMEOUT_MS,
  );

  it(
    "a job without a group runs its own INIT",
    async () => {
      const payload = handler.payloadSchema.parse({
        instance: fixtureInstance("raas-fixtures__tinystats-1"),
      });
      prepareTemplate.mockClear();
      const before = events.filter((event) => event.type === "created").length;
      const { ctx, endJob } = initContext("solo", null, payload);
      const init = (await handler.init(ctx)) as AgentInitOutput<{ repoDir: string }>;
      expect(prepareTemplate).not.toHaveBeenCalled();
      expect(events.filter((event) => event.type === "created").length - before).toBe(1);
      expect(await sh(init.sandbox, "cd tinystats && git status --porcelain")).toBe("");
      await endJob();
    },
    TIMEOUT_MS,
  );
});
