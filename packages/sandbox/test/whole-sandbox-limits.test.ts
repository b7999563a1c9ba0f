import type { TSandboxEvent } from "@raas/shared";
import { failureOf } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { BubblewrapRuntime } from "../src/index";
import { createTestRuntime, requireBubblewrap } from "./support/sandbox-fixture";

const MIB = 1024 ** 2;

/** Runs a bash call expected to end with the sandbox closed under it; returns what it threw. */
async function failingCall(
  sandbox: Awaited<ReturnType<BubblewrapRuntime["create"]>>,
  command: string,
): Promise<unknown> {
  return sandbox.runTool("bash", { command }, { timeoutMs: 90_000 }).then(
    (result) => new Error(`the call returned instead of failing: ${JSON.stringify(result)}`),
    (caught: unknown) => caught,
  );
}

function limitHits(events: TSandboxEvent[], sandboxId: string): Array<Record<string, unknown>> {
  return events
    .filter((event) => event.sandboxId === sandboxId && event.type === "limit_hit")
    .map((event) => event.detail ?? {});
}

// No cgroups here, as on clusters without writable ones: every whole-sandbox bound is the watchdog's.
describe("whole-sandbox limits without cgroups (watchdog)", () => {
  const fixture = createTestRuntime({ cgroups: "off", workspaceSizeBytes: 32 * MIB });
  const events: TSandboxEvent[] = [];
  fixture.runtime.onEvent((event) => events.push(event));
  afterAll(() => fixture.dispose());

  it("closes a sandbox whose background busy loops use up its total CPU, as the policy's doing", async () => {
    const sandbox = await fixture.runtime.create({ limits: { totalCpuSec: 2 } });
    const started = await sandbox.runTool("bash", {
      command: "(while :; do :; done) & (while :; do :; done) & echo started",
    });
    expect(started.output).toContain("started");
    const error = await failingCall(sandbox, "sleep 80");
    expect(failureOf(error)?.kind).toBe("sandbox-error");
    expect(failureOf(error)?.cause).toBe("policy");
    expect(failureOf(error, "policy")).toHaveProperty(
      "policyReason",
      expect.stringMatching(/CPU seconds in total, over its limit of 2/),
    );
    const hit = limitHits(events, sandbox.id).find((detail) => detail.limit === "cpuTotal");
    expect(hit).toMatchObject({ source: "watchdog", limitSec: 2 });
    expect(hit?.cpuSec as number).toBeGreaterThan(2);
    await sandbox.close();
    expect(sandbox.state).toBe("closed");
    // A later call is still the policy's failure, not the infrastructure's.
    await expect(sandbox.runTool("bash", { command: "true" })).rejects.toMatchObject({
      failure: { cause: "policy" },
    });
  });

  it("closes a sandbox whose processes together hold more memory than its bound", async () => {
    const sandbox = await fixture.runtime.create({ limits: { memoryBytes: 256 * MIB } });
    // Each hog stays under its own RLIMIT_AS; four of them exceed 256 MiB + headroom together.
    const hog = `python3 -c "import time; b = b'x' * (160 << 20); time.sleep(120)"`;
    const error = await failingCall(sandbox, `for i in 1 2 3 4; do ${hog} & done; sleep 80`);
    expect(failureOf(error)?.cause).toBe("policy");
    expect(failureOf(error, "policy")).toHaveProperty(
      "policyReason",
      expect.stringMatching(/MiB of memory together/),
    );
    expect(limitHits(events, sandbox.id)).toContainEqual(
      expect.objectContaining({ limit: "memory", source: "watchdog" }),
    );
  });

  it("closes a sandbox whose workspace grows over workspaceSizeBytes", async () => {
    const sandbox = await fixture.runtime.create({});
    const error = await failingCall(
      sandbox,
      "for i in 1 2 3 4; do head -c 16M /dev/zero > fill$i; done; sleep 80",
    );
    expect(failureOf(error)?.cause).toBe("policy");
    expect(failureOf(error, "policy")).toHaveProperty(
      "policyReason",
      expect.stringMatching(/workspace grew to .* over its limit of 32\.0 MiB/),
    );
    const hit = limitHits(events, sandbox.id).find((detail) => detail.limit === "disk");
    expect(hit).toMatchObject({ source: "watchdog", limitBytes: 32 * MIB });
  });

  it("stops a single file at the workspace size with RLIMIT_FSIZE, in bash, python and exec", async () => {
    const sandbox = await fixture.runtime.create({});
    // In /tmp, which the workspace walk does not count: only the per-file limit is at work.
    const bash = await sandbox.runTool("bash", {
      command: "head -c 40M /dev/zero > /tmp/big; echo $?; stat -c %s /tmp/big; rm /tmp/big",
    });
    expect(bash.output).toMatch(/153\s+33554432/);
    const python = await sandbox.runTool("python", {
      code: "import os\ntry:\n    open('/tmp/p', 'wb').write(b'x' * (40 << 20))\nexcept OSError as e:\n    print('refused', e.errno)\nos.path.getsize('/tmp/p')",
    });
    expect(python.output).toMatch(/refused 27/); // EFBIG: python ignores SIGXFSZ
    const exec = await sandbox.exec(["sh", "-c", "head -c 40M /dev/zero > /tmp/e; stat -c %s /tmp/e"]);
    expect(exec.stdout.trim()).toBe("33554432");
    expect(limitHits(events, sandbox.id)).toContainEqual(expect.objectContaining({ limit: "fileSize" }));
    expect(sandbox.state).toBe("ready");
    await sandbox.close();
  });

  it("reports which limits are in force and by what", async () => {
    const runtime = new BubblewrapRuntime({
      bwrapPath: requireBubblewrap(),
      baseDir: fixture.baseDir,
      cgroups: "off",
      workspaceSizeBytes: 32 * MIB,
      defaultLimits: { totalCpuSec: 300 },
      warn: () => {},
    });
    const before = runtime.limitsInForce();
    expect(before).toEqual({
      runtime: "bubblewrap",
      processes: { enforcedBy: "rlimit", max: 256 },
      memory: { enforcedBy: "watchdog", bytes: 4 * 1024 * MIB + 128 * MIB },
      cpuTotal: { enforcedBy: "watchdog", seconds: 300 },
      disk: { enforcedBy: "watchdog", bytes: 32 * MIB },
      perProcess: { cpuSec: 600, addressSpaceBytes: 4 * 1024 * MIB, fileBytes: 32 * MIB },
      shmBytes: 256 * MIB,
      tmpBytes: 1024 * MIB,
      toolJail: "unknown",
    });
    const sandbox = await runtime.create({});
    expect(runtime.limitsInForce().toolJail).toBe(sandbox.isolation?.toolJail ? "on" : "off");
    await runtime.closeAll();
  });

  it("refuses to run without any whole-sandbox memory bound unless told to", () => {
    const options = { bwrapPath: requireBubblewrap(), baseDir: fixture.baseDir, warn: () => {} };
    expect(() => new BubblewrapRuntime({ ...options, defaultLimits: { memoryBytes: undefined } })).toThrow(
      /refusing to run sandboxes without a memory bound.*allowUnboundedMemory: true/,
    );
    const unbounded = new BubblewrapRuntime({
      ...options,
      defaultLimits: { memoryBytes: undefined },
      allowUnboundedMemory: true,
    });
    expect(unbounded.limitsInForce().memory).toEqual({ enforcedBy: "none", bytes: null });
  });
});
