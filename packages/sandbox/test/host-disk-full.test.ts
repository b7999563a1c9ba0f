// The disk holding the sandboxes runs full (a real tmpfs, filled by a file outside any sandbox):
// whatever a sandbox did meanwhile failed for want of a resource of the host, not for anything
// the policy did, so the call fails as infrastructure instead of returning an ENOSPC result the
// agent and the grader would take for the policy's own. A policy that fills the disk itself —
// past its workspace quota, or a disk smaller than the quota — is still the policy's fault.
import { failureOf } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BubblewrapRuntime, type ManagedSandbox } from "../src/index";
import { TmpfsDisk } from "../src/testing/index";
import { requireBubblewrap } from "./support/sandbox-fixture";

const MIB = 1024 ** 2;

/** The rejection of `work` (an Error saying what came back when it resolves instead). */
async function rejection(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    (value) => new Error(`the call returned instead of failing: ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

describe("a full host disk under the sandboxes (bubblewrap on a real tmpfs)", () => {
  let disk: TmpfsDisk;
  let runtime: BubblewrapRuntime;
  let quotaRuntime: BubblewrapRuntime;

  beforeAll(() => {
    disk = TmpfsDisk.mount(16);
    runtime = new BubblewrapRuntime({
      bwrapPath: requireBubblewrap(),
      baseDir: disk.baseDir,
      warn: () => {},
    });
    quotaRuntime = new BubblewrapRuntime({
      bwrapPath: requireBubblewrap(),
      baseDir: disk.baseDir,
      workspaceSizeBytes: 6 * MIB,
      warn: () => {},
    });
  });
  afterAll(async () => {
    await runtime?.closeAll();
    await quotaRuntime?.closeAll();
    disk?.unmount();
  });

  const withSandbox = async (work: (sandbox: ManagedSandbox) => Promise<void>, on = runtime) => {
    const sandbox = await on.create({});
    try {
      await work(sandbox);
    } finally {
      disk.free();
      await sandbox.close();
    }
  };

  const expectHostFault = (error: unknown) => {
    expect(failureOf(error)?.kind).toBe("sandbox-error");
    expect(error).toMatchObject({ failure: { reason: "host_disk_full" } });
    expect(failureOf(error, "policy")).toBeNull();
    expect((error as Error).message).toMatch(/no space left on the host's disk/i);
  };

  it("fails the agent's tool calls and a handler's commands as infrastructure", async () => {
    await withSandbox(async (sandbox) => {
      disk.fill();
      // Before: the editor returned "ENOSPC ..." as the policy's failed call and left an empty file.
      expectHostFault(
        await rejection(
          sandbox.runTool("editor", { command: "create", path: "solution.py", file_text: "print(1)\n" }),
        ),
      );
      expectHostFault(
        await rejection(sandbox.runTool("bash", { command: "echo hi > out.txt; cat out.txt" })),
      );
      expectHostFault(await rejection(sandbox.exec(["python3", "-c", "print(6 * 7)"])));
      expectHostFault(await rejection(sandbox.writeFile("tests.py", "assert True\n")));
      disk.free();
      const after = await sandbox.runTool("bash", { command: "echo hi > out.txt; cat out.txt" });
      expect(after.output).toContain("hi");
    });
  }, 60_000);

  it("fails a call during which the disk was full for a while, though it had room again at its end", async () => {
    await withSandbox(async (sandbox) => {
      const call = rejection(sandbox.runTool("bash", { command: "sleep 3; echo done" }));
      await new Promise((resolve) => setTimeout(resolve, 500));
      disk.fill();
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      disk.free();
      expectHostFault(await call);
    });
  }, 60_000);

  it("blames the policy that filled the disk past its workspace quota", async () => {
    await withSandbox(async (sandbox) => {
      const error = await rejection(
        sandbox.runTool("bash", {
          command: "for i in 1 2 3; do head -c 5M /dev/zero > part$i; done; echo written",
        }),
      );
      expect(failureOf(error)?.kind).toBe("sandbox-error");
      expect(failureOf(error, "policy")).toHaveProperty(
        "policyReason",
        expect.stringMatching(/workspace grew to .* over its limit of 6\.0 MiB/),
      );
    }, quotaRuntime);
  }, 60_000);

  it("blames the policy that filled a disk smaller than its quota by itself", async () => {
    await withSandbox(async (sandbox) => {
      const error = await rejection(
        sandbox.runTool("bash", { command: "head -c 64M /dev/zero > big; echo written" }),
      );
      expect(failureOf(error)?.kind).toBe("sandbox-error");
      expect(failureOf(error, "policy")).toHaveProperty(
        "policyReason",
        expect.stringMatching(/the workspace filled the host's disk/),
      );
    });
  }, 60_000);
});
