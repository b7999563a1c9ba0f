// The group template cache over a real bubblewrap runtime: one preparation per group, shared and
// retried failures, abandoned preparations, and templates removed once the group is done.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PreparedSandboxTemplate } from "@raas/engine";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { failureOf, stageFailure } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { GroupTemplates } from "../../src/base/group-templates";

const TIMEOUT_MS = 120_000;
const bwrapPath = findExecutable("bwrap", "/usr/local/bin:/usr/bin:/bin");
if (!bwrapPath) throw new Error("this test needs bubblewrap: apt-get install -y bubblewrap");
const baseDir = mkdtempSync(join(tmpdir(), "raas-group-templates-"));
const runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });

const sandboxDirs = () => readdirSync(baseDir).filter((name) => name.startsWith("sbx-"));

async function waitFor(predicate: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A preparation that writes `marker` into the workspace and counts how often it ran. */
function counted(marker: string, fail?: (run: number) => Error | undefined) {
  const counter = { runs: 0 };
  const prepare = (signal: AbortSignal): Promise<PreparedSandboxTemplate<string>> => {
    counter.runs += 1;
    const run = counter.runs;
    return runtime.prepareTemplate(
      {},
      async (sandbox) => {
        const result = await sandbox.exec(["bash", "-c", `echo ${marker} > marker`], { signal });
        if (result.exitCode !== 0) throw new Error(result.stderr);
        const error = fail?.(run);
        if (error) throw error;
        return marker;
      },
      signal,
    );
  };
  return { counter, prepare };
}

const live = () => new AbortController().signal;

describe("GroupTemplates (bubblewrap)", () => {
  afterAll(async () => {
    await runtime.closeAll();
    rmSync(baseDir, { recursive: true, force: true });
  });

  it(
    "prepares once for the members arriving together and removes the template once the group is done",
    async () => {
      const templates = new GroupTemplates<string>({ graceMs: 50 });
      const { counter, prepare } = counted("group-a");
      const leases = await Promise.all(
        Array.from({ length: 4 }, () => templates.acquire("a", live(), prepare)),
      );
      expect(counter.runs).toBe(1);
      expect(new Set(leases.map((lease) => lease.template.id)).size).toBe(1);
      expect(leases.map((lease) => lease.value)).toEqual(["group-a", "group-a", "group-a", "group-a"]);
      const member = await runtime.createFrom(leases[0]!.template, {});
      expect((await member.exec(["cat", "marker"])).stdout).toBe("group-a\n");
      await member.close();
      for (const lease of leases.slice(0, 3)) lease.release();
      // A member queued late (or a retry) within the grace period finds the template still there.
      const late = await templates.acquire("a", live(), prepare);
      expect(counter.runs).toBe(1);
      leases[3]!.release();
      late.release();
      late.release(); // idempotent
      await waitFor(() => runtime.heldTemplates.length === 0 && templates.size === 0);
      expect(sandboxDirs()).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "a task failure is every member's, without a second INIT",
    async () => {
      const templates = new GroupTemplates<string>({ graceMs: 5_000 });
      const failure = stageFailure("eval", "setup command `exit 3` exited with 3");
      const { counter, prepare } = counted("bad", () => failure);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 3 }, () => templates.acquire("bad", live(), prepare)),
      );
      expect(outcomes.map((o) => (o.status === "rejected" ? o.reason : "ok"))).toEqual([
        failure,
        failure,
        failure,
      ]);
      await expect(templates.acquire("bad", live(), prepare)).rejects.toBe(failure);
      expect(counter.runs).toBe(1);
      expect(runtime.heldTemplates).toHaveLength(0);
      await templates.clear();
      expect(sandboxDirs()).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "an infrastructure failure is retried once by a fresh preparation; a lasting one fails the members",
    async () => {
      const templates = new GroupTemplates<string>({ graceMs: 50 });
      const flaky = counted("second", (run) => (run === 1 ? stageFailure("sandbox", "killed") : undefined));
      const leases = await Promise.all(
        Array.from({ length: 3 }, () => templates.acquire("flaky", live(), flaky.prepare)),
      );
      expect(flaky.counter.runs).toBe(2);
      expect(leases.map((lease) => lease.value)).toEqual(["second", "second", "second"]);
      for (const lease of leases) lease.release();

      const broken = counted("never", () => stageFailure("sandbox", "bwrap: cannot set up uid map"));
      const outcomes = await Promise.allSettled(
        Array.from({ length: 2 }, () => templates.acquire("broken", live(), broken.prepare)),
      );
      expect(outcomes.every((o) => o.status === "rejected" && failureOf(o.reason)?.kind === "sandbox")).toBe(
        true,
      );
      expect(broken.counter.runs).toBe(2);
      await waitFor(() => runtime.heldTemplates.length === 0 && templates.size === 0);
      expect(sandboxDirs()).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "a preparation every member left is aborted and leaves nothing behind",
    async () => {
      const templates = new GroupTemplates<string>();
      let prepSignal: AbortSignal | undefined;
      const prepare = (signal: AbortSignal) => {
        prepSignal = signal;
        return runtime.prepareTemplate(
          {},
          async (sandbox) => {
            await sandbox.exec(["sleep", "20"], { signal });
            return "slow";
          },
          signal,
        );
      };
      const members = [new AbortController(), new AbortController()];
      const waits = members.map((member) => templates.acquire("slow", member.signal, prepare));
      await waitFor(() => prepSignal !== undefined && runtime.openSandboxes.length > 0);
      members[0]!.abort(new Error("member 0 cancelled"));
      await expect(waits[0]).rejects.toThrow("member 0 cancelled");
      expect(prepSignal!.aborted).toBe(false);
      members[1]!.abort(new Error("member 1 cancelled"));
      await expect(waits[1]).rejects.toThrow("member 1 cancelled");
      expect(prepSignal!.aborted).toBe(true);
      await waitFor(() => runtime.openSandboxes.length === 0 && sandboxDirs().length === 0);
      expect(templates.size).toBe(0);
      expect(runtime.heldTemplates).toHaveLength(0);
    },
    TIMEOUT_MS,
  );
});
