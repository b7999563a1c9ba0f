// The auto warm pool (the deployments' default) on real bubblewrap: empty until a group forks, then
// as many started sandboxes as that group used, handed to the next group; never handed to a spec
// it cannot satisfy; emptied when idle and on closeAll, with nothing left behind.
import { readdirSync } from "node:fs";
import type { Sandbox, SandboxTemplate } from "@raas/engine";
import type { TSandboxEvent } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import type { BubblewrapRuntime } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

const TIMEOUT_MS = 120_000;
const LIMITS = { defaultLimits: { memoryBytes: 2 * 1024 ** 3 } };

async function sh(sandbox: Sandbox, script: string): Promise<string> {
  const result = await sandbox.exec(["bash", "-c", script], { timeoutMs: 30_000 });
  if (result.exitCode !== 0) throw new Error(`\`${script}\` exited ${result.exitCode}: ${result.stderr}`);
  return result.stdout;
}

async function prepareRepo(sandbox: Sandbox): Promise<void> {
  await sh(sandbox, "mkdir -p repo && printf 'base\\n' > repo/a.txt");
}

/** Waits (bounded) until `condition` holds; the outcome is asserted by the caller. */
async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A group of `n` as the handlers run one: the first member's sandbox prepares the template and stays its own. */
async function forkGroup(runtime: BubblewrapRuntime, n: number, group: string) {
  const { template, sandbox } = await runtime.prepareTemplate(
    { jobId: `${group}-0` },
    prepareRepo,
    undefined,
    {
      keepSandbox: true,
    },
  );
  const members: Sandbox[] = [sandbox!];
  for (let k = 1; k < n; k += 1) members.push(await runtime.createFrom(template, { jobId: `${group}-${k}` }));
  return {
    template,
    members,
    end: async () => {
      await Promise.all(members.map((member) => member.close()));
      await template.remove();
    },
  };
}

const sandboxDirsIn = (baseDir: string) => readdirSync(baseDir).filter((name) => name.startsWith("sbx-"));

describe("auto warm pool (bubblewrap)", () => {
  const fixture = createTestRuntime({ ...LIMITS, warmPoolSize: "auto" });
  const { runtime } = fixture;
  const events: TSandboxEvent[] = [];
  runtime.onEvent((event) => events.push(event));
  afterAll(() => fixture.dispose());
  const fromPool = (jobIds: string[]) =>
    jobIds.map((jobId) =>
      events.some((event) => event.type === "assigned" && event.jobId === jobId && event.detail?.fromPool),
    );

  it(
    "starts nothing for sandboxes without a group",
    async () => {
      const sandbox = await runtime.create({ jobId: "solo" });
      await sandbox.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(runtime.warmPool).toEqual({ targetSize: 0, idle: 0 });
      expect(runtime.openSandboxes).toHaveLength(0);
    },
    TIMEOUT_MS,
  );

  it(
    "learns a group's size from its first fork and serves the next group's template and members from it",
    async () => {
      const first = await forkGroup(runtime, 3, "g1");
      // Empty until the group's first fork; it starts growing then (a later member may get one).
      expect(fromPool(["g1-0", "g1-1"])).toEqual([false, false]);
      await first.end();
      expect(runtime.warmPool?.targetSize).toBe(3);
      await runtime.warmUp();
      expect(runtime.warmPool).toEqual({ targetSize: 3, idle: 3 });

      const second = await forkGroup(runtime, 3, "g2");
      expect(fromPool(["g2-0", "g2-1", "g2-2"])).toEqual([true, true, true]);
      // Pooled or not, each member has its own copy: the first member's write stays its own.
      await sh(second.members[0]!, "echo mine >> repo/a.txt");
      for (const member of second.members.slice(1)) expect(await sh(member, "cat repo/a.txt")).toBe("base\n");
      await second.end();
      // Refilled in the background after the takes.
      await runtime.warmUp();
      expect(runtime.warmPool).toEqual({ targetSize: 3, idle: 3 });
    },
    TIMEOUT_MS,
  );

  it(
    "never hands a pooled sandbox to a spec it cannot satisfy (env, limits)",
    async () => {
      await runtime.warmUp();
      const { template } = await runtime.prepareTemplate(
        { jobId: "env-tpl", env: { MARK: "set" } },
        prepareRepo,
      );
      const withEnv = await runtime.createFrom(template, { jobId: "env-member", env: { MARK: "set" } });
      const withLimits = await runtime.create({ jobId: "limits", limits: { maxProcesses: 64 } });
      try {
        expect(fromPool(["env-tpl", "env-member", "limits"])).toEqual([false, false, false]);
        expect(await sh(withEnv, 'echo "$MARK"; cat repo/a.txt')).toBe("set\nbase\n");
        expect(await sh(withLimits, "ulimit -u")).toBe("64\n");
        expect(runtime.warmPool?.idle).toBe(runtime.warmPool?.targetSize);
      } finally {
        await withEnv.close();
        await withLimits.close();
        await template.remove();
      }
    },
    TIMEOUT_MS,
  );

  it(
    "closeAll closes the pool and forgets its size: nothing is left, nothing refills",
    async () => {
      await runtime.warmUp();
      const taken = await runtime.create({ jobId: "last" });
      expect(fromPool(["last"])).toEqual([true]);
      await runtime.closeAll();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(taken.state).toBe("closed");
      expect(runtime.warmPool).toEqual({ targetSize: 0, idle: 0 });
      expect(runtime.openSandboxes).toHaveLength(0);
      expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);
    },
    TIMEOUT_MS,
  );
});

describe("auto warm pool when idle (bubblewrap)", () => {
  const fixture = createTestRuntime({ ...LIMITS, warmPoolSize: "auto", warmPoolIdleMs: 2_000 });
  const { runtime } = fixture;
  afterAll(() => fixture.dispose());

  it(
    "closes its sandboxes once nothing was taken for warmPoolIdleMs, and learns again from the next group",
    async () => {
      let group = await forkGroup(runtime, 2, "idle-1");
      // Read right after the group's last fork, well within warmPoolIdleMs.
      expect(runtime.warmPool?.targetSize).toBe(2);
      await group.end();
      await waitFor(() => runtime.warmPool?.targetSize === 0 && runtime.openSandboxes.length === 0);
      expect(runtime.warmPool).toEqual({ targetSize: 0, idle: 0 });
      expect(runtime.openSandboxes).toHaveLength(0);
      expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);

      group = await forkGroup(runtime, 3, "idle-2");
      expect(runtime.warmPool?.targetSize).toBe(3);
      await group.end();
    },
    TIMEOUT_MS,
  );
});

describe("prepareTemplate keeping its sandbox (bubblewrap)", () => {
  const fixture = createTestRuntime(LIMITS);
  const { runtime } = fixture;
  afterAll(() => fixture.dispose());

  it(
    "the sandbox that ran the INIT keeps running for its member; the template is a copy nothing changes afterwards",
    async () => {
      let template: SandboxTemplate | undefined;
      let kept: Sandbox | undefined;
      try {
        ({ template, sandbox: kept } = await runtime.prepareTemplate(
          { jobId: "preparer" },
          async (sandbox) => {
            await prepareRepo(sandbox);
            // A process the INIT left running keeps writing in the kept sandbox only.
            const started = await sandbox.runTool("bash", {
              command:
                "(while true; do date +%s%N >> /workspace/repo/clock; sleep 0.02; done) >/dev/null 2>&1 &",
            });
            expect(started.exitCode).toBe(0);
          },
          undefined,
          { keepSandbox: true },
        ));
        expect(kept?.state).toBe("ready");
        const member = await runtime.createFrom(template, { jobId: "sibling" });
        const siblingClock = await sh(member, "wc -l < repo/clock || echo 0");
        await sh(
          kept!,
          "echo mine >> repo/a.txt && for i in $(seq 100); do [ $(wc -l < repo/clock) -gt 5 ] && exit 0; sleep 0.05; done; exit 1",
        );
        expect(await sh(member, "cat repo/a.txt")).toBe("base\n");
        expect(await sh(member, "wc -l < repo/clock || echo 0")).toBe(siblingClock);
        const late = await runtime.createFrom(template, { jobId: "late" });
        expect(await sh(late, "cat repo/a.txt; wc -l < repo/clock || echo 0")).toBe(`base\n${siblingClock}`);
        await Promise.all([member.close(), late.close()]);
      } finally {
        await kept?.close();
        await template?.remove();
      }
      expect(runtime.openSandboxes).toHaveLength(0);
      expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "a failing INIT closes the sandbox it would have kept and keeps nothing",
    async () => {
      const failure = new Error("setup failed");
      let seen: Sandbox | undefined;
      await expect(
        runtime.prepareTemplate(
          {},
          async (sandbox) => {
            seen = sandbox;
            throw failure;
          },
          undefined,
          { keepSandbox: true },
        ),
      ).rejects.toBe(failure);
      expect(seen?.state).toBe("closed");
      expect(runtime.heldTemplates).toHaveLength(0);
      expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
