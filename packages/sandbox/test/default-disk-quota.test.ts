// With default settings a bubblewrap sandbox's workspace has a quota that needs no cgroup and no
// root: one file cannot outgrow it (RLIMIT_FSIZE of every tool process) and many files together
// close the sandbox as the policy's doing (the watchdog's walk). A sandbox once wrote 5 GiB where
// `disk` was enforced by "none". fallocate makes the files without writing them, so the test
// costs no I/O; it needs about 6 GiB of free disk under the base directory for a moment.

import type { TSandboxEvent } from "@raas/shared";
import { failureOf } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_WORKSPACE_SIZE_BYTES } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

const GIB = 1024 ** 3;

describe("the default workspace quota (bubblewrap, default settings)", () => {
  const fixture = createTestRuntime();
  const events: TSandboxEvent[] = [];
  fixture.runtime.onEvent((event) => events.push(event));
  afterAll(() => fixture.dispose());

  const hitsOf = (sandboxId: string) =>
    events
      .filter((event) => event.sandboxId === sandboxId && event.type === "limit_hit")
      .map((event) => event.detail ?? {});

  it("is in force, enforced by the watchdog and each process's file-size limit", () => {
    expect(DEFAULT_WORKSPACE_SIZE_BYTES).toBe(4 * GIB);
    const inForce = fixture.runtime.limitsInForce();
    expect(inForce.disk).toEqual({ enforcedBy: "watchdog", bytes: 4 * GIB });
    expect(inForce.perProcess.fileBytes).toBe(4 * GIB);
  });

  it("refuses one file past the quota and leaves the sandbox running", async () => {
    const sandbox = await fixture.runtime.create({});
    const result = await sandbox.runTool("bash", {
      command: `fallocate -l ${DEFAULT_WORKSPACE_SIZE_BYTES + GIB} big; echo "exit $?"; stat -c %s big`,
    });
    expect(result.output).toMatch(/exit 153\s+0\b/); // SIGXFSZ; nothing allocated
    expect(hitsOf(sandbox.id)).toContainEqual(expect.objectContaining({ limit: "fileSize" }));
    expect(sandbox.state).toBe("ready");
    await sandbox.close();
  }, 120_000);

  it("closes a sandbox whose files together pass the quota, as the policy's limit hit", async () => {
    const sandbox = await fixture.runtime.create({});
    const error = await sandbox
      .runTool(
        "bash",
        { command: "for i in 1 2 3; do fallocate -l 2G part$i; done; echo written; sleep 80" },
        { timeoutMs: 90_000 },
      )
      .then(
        (result) => new Error(`the call returned instead of failing: ${JSON.stringify(result)}`),
        (caught: unknown) => caught,
      );
    expect(failureOf(error)?.kind).toBe("sandbox-error");
    expect(failureOf(error)?.cause).toBe("policy");
    expect(failureOf(error, "policy")).toHaveProperty(
      "policyReason",
      expect.stringMatching(/workspace grew to .* over its limit of 4096\.0 MiB/),
    );
    expect(hitsOf(sandbox.id)).toContainEqual(
      expect.objectContaining({ limit: "disk", source: "watchdog", limitBytes: 4 * GIB }),
    );
    expect(["closing", "closed"]).toContain(sandbox.state);
  }, 150_000);
});
