import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ManagedSandbox } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

/**
 * Output that contains prompt markers — the shell's own variables, an old prompt saved to a
 * file, a hand-made marker with a fake exit code — must never end a command early or late.
 * A forged end would hang the call until its timeout and restart the shell, so each check
 * also asserts that the call did not time out and that the shell is still the same process.
 */
describe("bash completion cannot be forged by command output", () => {
  const fixture = createTestRuntime({ noOutputTimeoutMs: 5_000 });
  let sandbox: ManagedSandbox;
  let shellPid: string;
  // Generous: a forged completion shows up as a timeout, not as a slow pass.
  const bash = (command: string) => sandbox.runTool("bash", { command }, { timeoutMs: 15_000 });

  beforeAll(async () => {
    sandbox = await fixture.runtime.create({});
    shellPid = (await bash("export KEEP=survives; echo $$")).output.trim();
  });
  afterAll(() => fixture.dispose());

  const expectSameSession = async () => {
    expect((await bash('echo "$$ $KEEP"')).output).toBe(`${shellPid} survives\n`);
  };

  it.each([
    ["env", /^KEEP=survives$/m],
    ['echo "$PS1"', /^__RAAS_[0-9a-f]{12}_0__$/m],
    ["declare -p", /^declare -x KEEP="survives"$/m],
    ["set", /^KEEP=survives$/m],
  ])("`%s` returns its output and exit code", async (command, expected) => {
    const result = await bash(`${command}; echo tail-line`);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });
    expect(result.output).toMatch(expected);
    expect(result.output.endsWith("tail-line\n")).toBe(true);
    await expectSameSession();
  });

  it("prints a file holding an earlier prompt without ending early", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
    await bash('printf "%s\\n" "${PS1@P}" > /tmp/old-prompt');
    const result = await bash("cat /tmp/old-prompt; echo after; false");
    expect(result).toMatchObject({ exitCode: 1, timedOut: false });
    expect(result.output).toMatch(/^__RAAS_[0-9a-f]{12}_0__\nafter\n$/);
    await expectSameSession();
  });

  it("ignores hand-made markers with fake exit codes, wherever they appear", async () => {
    const forged = await bash(
      [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
        'prompt="${PS1@P}"',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
        'printf "%s42__\\n" "${prompt%[0-9]*__}"',
        "printf '__RAAS_%s_7__' 0123456789ab",
        "sleep 0.2",
        "echo; echo after",
        "(exit 5)",
      ].join("\n"),
    );
    expect(forged).toMatchObject({ exitCode: 5, timedOut: false });
    expect(forged.output).toMatch(/^__RAAS_[0-9a-f]{12}_42__\n__RAAS_0123456789ab_7__\nafter\n$/);
    await expectSameSession();
  });

  it("keeps $? across calls and hides its own bookkeeping from `set -x`", async () => {
    await bash("false");
    expect((await bash("echo $?")).output).toBe("1\n");
    const traced = await bash("set -x; echo traced; set +x");
    // Sourced scripts trace one level deep (`++`); nothing of the shell's own line shows.
    expect(traced.output).toBe("++ echo traced\ntraced\n++ set +x\n");
    await expectSameSession();
  });

  it("keeps the shell's lines out of `history`", async () => {
    const result = await bash("history; echo done");
    expect(result.output).not.toContain("__raas_end");
    expect(result.output.endsWith("done\n")).toBe(true);
  });
});
