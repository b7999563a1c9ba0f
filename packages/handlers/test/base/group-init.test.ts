// A group member's INIT from its group's template over real bubblewrap: the member whose sandbox ran
// the INIT keeps it, the others copy; a preparer that leaves, or a retried preparation, leaks no sandbox.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { SetupContext } from "../../src/base/agent-handler.types";
import type { TAgentTaskBase } from "../../src/base/agent-payload.schema";
import { initFromGroupTemplate } from "../../src/base/group-init";
import { GroupTemplates } from "../../src/base/group-templates";
import { initStageContext, sh } from "../support/init-stage";

const TIMEOUT_MS = 120_000;
const bwrapPath = findExecutable("bwrap", "/usr/local/bin:/usr/bin:/bin");
if (!bwrapPath) throw new Error("this test needs bubblewrap: apt-get install -y bubblewrap");
const baseDir = mkdtempSync(join(tmpdir(), "raas-group-init-"));
const runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });

const member = (jobId: string, controller = new AbortController()) =>
  initStageContext({ id: jobId, groupId: "g" }, {} as TAgentTaskBase, controller);

function init(
  templates: GroupTemplates<string>,
  m: ReturnType<typeof member>,
  setup: (ctx: SetupContext<TAgentTaskBase>) => Promise<string>,
) {
  return initFromGroupTemplate({
    runtime,
    templates,
    kind: "test",
    groupId: "g",
    ctx: m.ctx,
    spec: {},
    setup,
  });
}

describe("initFromGroupTemplate (bubblewrap)", () => {
  afterAll(async () => {
    await runtime.closeAll();
    rmSync(baseDir, { recursive: true, force: true });
  });

  it(
    "the member that ran the INIT keeps its sandbox; the others start from copies",
    async () => {
      const createFrom = vi.spyOn(runtime, "createFrom");
      const templates = new GroupTemplates<string>({ graceMs: 0 });
      const seen: string[] = [];
      const setup = async ({ sandbox }: SetupContext<TAgentTaskBase>) => {
        seen.push(sandbox.id);
        await sh(sandbox, "echo prepared > state");
        return "ok";
      };
      const members = ["a", "b", "c"].map((id) => member(id));
      const inits = await Promise.all(members.map((m) => init(templates, m, setup)));
      try {
        expect(seen).toHaveLength(1);
        expect(inits[0]!.sandbox.id).toBe(seen[0]);
        expect(createFrom).toHaveBeenCalledTimes(2);
        expect(inits.map((i) => i.setup)).toEqual(["ok", "ok", "ok"]);
        await sh(inits[0]!.sandbox, "echo mine >> state");
        expect(await sh(inits[1]!.sandbox, "cat state")).toBe("prepared\n");
        expect(await sh(inits[2]!.sandbox, "cat state")).toBe("prepared\n");
      } finally {
        await Promise.all(members.map((m) => m.endJob()));
        createFrom.mockRestore();
      }
      expect(runtime.openSandboxes).toHaveLength(0);
    },
    TIMEOUT_MS,
  );

  it(
    "a preparer that leaves while others wait: the INIT finishes for them and its sandbox is closed",
    async () => {
      const templates = new GroupTemplates<string>({ graceMs: 0 });
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const setup = async ({ sandbox }: SetupContext<TAgentTaskBase>) => {
        await gate;
        await sh(sandbox, "echo prepared > state");
        return "ok";
      };
      const leaver = member("leaver");
      const stayer = member("stayer");
      const leaving = init(templates, leaver, setup);
      const staying = init(templates, stayer, setup);
      leaver.controller.abort(new Error("cancelled"));
      await expect(leaving).rejects.toThrow("cancelled");
      release();
      const kept = await staying;
      try {
        expect(await sh(kept.sandbox, "cat state")).toBe("prepared\n");
        // Only the stayer's sandbox is open: the preparation's own was closed, not handed to anyone.
        const deadline = Date.now() + 30_000;
        while (runtime.openSandboxes.length > 1 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(runtime.openSandboxes.map((sandbox) => sandbox.id)).toEqual([kept.sandbox.id]);
      } finally {
        await stayer.endJob();
        await leaver.endJob();
      }
      expect(runtime.openSandboxes).toHaveLength(0);
    },
    TIMEOUT_MS,
  );

  it(
    "an INIT that fails for infrastructure once is prepared again; every member gets one sandbox",
    async () => {
      const templates = new GroupTemplates<string>({ graceMs: 0 });
      let runs = 0;
      const setup = async ({ sandbox }: SetupContext<TAgentTaskBase>) => {
        runs += 1;
        if (runs === 1) throw new Error("the sandbox's disk went away");
        await sh(sandbox, "echo prepared > state");
        return "ok";
      };
      const members = ["r0", "r1", "r2"].map((id) => member(id));
      const inits = await Promise.all(members.map((m) => init(templates, m, setup)));
      try {
        expect(runs).toBe(2);
        for (const i of inits) expect(await sh(i.sandbox, "cat state")).toBe("prepared\n");
        expect(new Set(inits.map((i) => i.sandbox.id)).size).toBe(3);
        expect(runtime.openSandboxes).toHaveLength(3);
      } finally {
        await Promise.all(members.map((m) => m.endJob()));
      }
      expect(runtime.openSandboxes).toHaveLength(0);
    },
    TIMEOUT_MS,
  );
});
