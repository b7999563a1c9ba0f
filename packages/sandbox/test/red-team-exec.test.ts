import { readFileSync } from "node:fs";
import { failureOf } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ManagedSandbox } from "../src/index";
import { PREPARE_TIMEOUT_MS, SANDBOX_TARGETS } from "./support/sandbox-targets";

/**
 * The attacks of issue 9 §4–§5 (the tool-forging ones are in red-team.test.ts): exec commands
 * run isolated and are never interrupted by silence, and failures the policy causes are marked
 * as its own — each against a real bubblewrap sandbox, on the host's root filesystem and on an image.
 */

describe.each(SANDBOX_TARGETS)(
  "red team: exec commands are isolated and never interrupted by silence ($name)",
  (target) => {
    const fixture = target.createRuntime({ noOutputTimeoutMs: 1_000 });
    let sandbox: ManagedSandbox;

    beforeAll(async () => {
      await target.prepare();
      sandbox = await fixture.runtime.create(target.spec());
    }, PREPARE_TIMEOUT_MS);
    afterAll(() => fixture.dispose());

    const sleepers = async () =>
      (await sandbox.runTool("bash", { command: "pgrep -fc 'sleep 10[0-9][0-9]' || true" })).output;

    it("kills an exec command's daemons and double-forked children when it returns", async () => {
      const result = await sandbox.exec([
        "sh",
        "-c",
        "setsid sh -c 'sleep 1000' & (sleep 1001 &) & nohup sleep 1002 >/dev/null 2>&1 & echo started",
      ]);
      expect(result).toMatchObject({ exitCode: 0, stdout: "started\n", timedOut: false });
      const after = await sandbox.exec([
        "sh",
        "-c",
        "for d in /proc/[0-9]*; do tr '\\0' ' ' < $d/cmdline 2>/dev/null; echo; done",
      ]);
      expect(after.stdout).not.toMatch(/sleep 10\d\d/);
      const survivors = sandbox
        .processIds()
        .map((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, "utf8");
          } catch {
            return "";
          }
        })
        .filter((cmdline) => /sleep\0?10\d\d/.test(cmdline));
      expect(survivors).toEqual([]);
      expect(await sleepers()).toBe("0\n");
    });

    it("cannot see the agent's shell functions or variables", async () => {
      await sandbox.runTool("bash", {
        command: "export AGENT_SECRET=planted; false() { return 0; }; export -f false; cd /tmp",
      });
      const result = await sandbox.exec([
        "bash",
        "-c",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
        'echo "secret=${AGENT_SECRET:-unset}"; false; echo "false=$?"; pwd',
      ]);
      expect(result.stdout).toBe("secret=unset\nfalse=1\n/workspace\n");
      expect(result.exitCode).toBe(0);
    });

    it("never interrupts silent commands", async () => {
      const sleeper = await sandbox.exec(["sleep", "3"], { timeoutMs: 30_000 });
      expect(sleeper).toMatchObject({ exitCode: 0, timedOut: false, signal: null });
      const poller = await sandbox.exec(
        [
          "python3",
          "-c",
          "import subprocess\nr = subprocess.run(['sh', '-c', 'sleep 3; echo quiet'], capture_output=True)\nprint(r.returncode, r.stdout.decode().strip())",
        ],
        { timeoutMs: 30_000 },
      );
      expect(poller).toMatchObject({ exitCode: 0, stdout: "0 quiet\n", timedOut: false });
      const reader = await sandbox.exec(["sh", "-c", "sleep 2; read line; echo got=$line"], {
        stdin: "input\n",
        timeoutMs: 30_000,
      });
      expect(reader).toMatchObject({ exitCode: 0, stdout: "got=input\n" });
    });

    it("kills the whole tree at its timeout", async () => {
      const result = await sandbox.exec(
        ["sh", "-c", "setsid sleep 1005 & (sleep 1006 &); sleep 1007; echo never"],
        { timeoutMs: 1_000 },
      );
      expect(result).toMatchObject({ timedOut: true });
      expect(result.exitCode === 0).toBe(false);
      expect(result.stdout).not.toContain("never");
      expect(await sleepers()).toBe("0\n");
    });
  },
);

describe.each(SANDBOX_TARGETS)(
  "red team: failures the policy causes are marked as its own ($name)",
  (target) => {
    const fixture = target.createRuntime();
    beforeAll(() => target.prepare(), PREPARE_TIMEOUT_MS);
    afterAll(() => fixture.dispose());

    it("blames the policy when the wall time runs out during its tool call", async () => {
      const sandbox = await fixture.runtime.create({ ...target.spec(), limits: { wallTimeMs: 1_000 } });
      const error = await sandbox
        .runTool("bash", { command: "while :; do :; done" }, { timeoutMs: 30_000 })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(failureOf(error)?.kind).toBe("sandbox-error");
      expect(failureOf(error)?.cause).toBe("policy");
      expect(failureOf(error, "policy")).toHaveProperty("policyReason", expect.stringMatching(/wall-time/));
      await sandbox.close();
    });
  },
);
