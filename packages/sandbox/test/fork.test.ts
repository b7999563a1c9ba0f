import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Sandbox, SandboxTemplate } from "@raas/engine";
import type { TSandboxEvent } from "@raas/shared";
import { failureOf } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import type { WorkspaceTemplate } from "../src/host/workspace-template";
import { createTestRuntime } from "./support/sandbox-fixture";

const TIMEOUT_MS = 90_000;

/** Runs a bash script in the sandbox; fails the test on a non-zero exit. */
async function sh(sandbox: Sandbox, script: string): Promise<string> {
  const result = await sandbox.exec(["bash", "-c", script], { timeoutMs: 30_000 });
  if (result.exitCode !== 0) throw new Error(`\`${script}\` exited ${result.exitCode}: ${result.stderr}`);
  return result.stdout;
}

/** What a member (or the template) holds: contents and modes of the prepared files. */
const SNAPSHOT = `cd /workspace/repo && for f in a.txt b.txt run.sh sub/c.txt new.txt; do
  if [ -e "$f" ]; then printf '%s %s %s\\n' "$f" "$(stat -c %a "$f")" "$(cat "$f" | tr '\\n' '|')"; else echo "$f absent"; fi
done`;

const PREPARED = [
  "a.txt 644 base|",
  "b.txt 644 bee|",
  "run.sh 644 echo hi|",
  "sub/c.txt 600 sea|",
  "new.txt absent",
];

/** Prepares the template's workspace the way an INIT would: files, modes, a git-like tree. */
async function prepareRepo(sandbox: Sandbox): Promise<string> {
  await sh(
    sandbox,
    `set -e; mkdir -p repo/sub; cd repo
printf 'base\\n' > a.txt; printf 'bee\\n' > b.txt; printf 'echo hi\\n' > run.sh; printf 'sea\\n' > sub/c.txt
chmod 644 a.txt b.txt run.sh; chmod 600 sub/c.txt`,
  );
  return "/workspace/repo";
}

function hostSnapshot(template: SandboxTemplate): string[] {
  const repo = join((template as WorkspaceTemplate).workspace, "repo");
  return ["a.txt", "b.txt", "run.sh", "sub/c.txt", "new.txt"].map((name) => {
    const path = join(repo, name);
    try {
      const mode = (statSync(path).mode & 0o777).toString(8);
      return `${name} ${mode} ${readFileSync(path, "utf8").replaceAll("\n", "|")}`;
    } catch {
      return `${name} absent`;
    }
  });
}

const sandboxDirsIn = (baseDir: string) => readdirSync(baseDir).filter((name) => name.startsWith("sbx-"));

describe("sandbox fork for groups (bubblewrap)", () => {
  const fixture = createTestRuntime({ defaultLimits: { memoryBytes: 2 * 1024 ** 3 } });
  const { runtime } = fixture;
  afterAll(() => fixture.dispose());

  it(
    "a member's writes, deletions and mode changes are invisible to its siblings and the template",
    async () => {
      const { template, value } = await runtime.prepareTemplate({ jobId: "template" }, prepareRepo);
      expect(value).toBe("/workspace/repo");
      expect(hostSnapshot(template)).toEqual(PREPARED);
      const a = await runtime.createFrom(template, { jobId: "member-a" });
      const b = await runtime.createFrom(template, { jobId: "member-b" });
      try {
        expect((await sh(a, SNAPSHOT)).trim().split("\n")).toEqual(PREPARED);
        // In place (the hard-link trap), deletion, chmod, a new file, through the agent's own shell too.
        await sh(
          a,
          "cd repo && printf 'changed\\n' >> a.txt && rm b.txt && chmod 755 run.sh && chmod 644 sub/c.txt",
        );
        const shell = await a.runTool("bash", {
          command: "cd /workspace/repo && echo fresh > new.txt && echo x >> sub/c.txt",
        });
        expect(shell.exitCode).toBe(0);
        expect((await sh(a, SNAPSHOT)).trim().split("\n")).toEqual([
          "a.txt 644 base|changed|",
          "b.txt absent",
          "run.sh 755 echo hi|",
          "sub/c.txt 644 sea|x|",
          "new.txt 644 fresh|",
        ]);
        expect((await sh(b, SNAPSHOT)).trim().split("\n")).toEqual(PREPARED);
        expect(hostSnapshot(template)).toEqual(PREPARED);
        // A member started after A's changes starts from the untouched template.
        const c = await runtime.createFrom(template, { jobId: "member-c", files: { "note.md": "own file" } });
        expect((await sh(c, SNAPSHOT)).trim().split("\n")).toEqual(PREPARED);
        expect(await sh(c, "cat note.md")).toBe("own file");
        expect(await sh(b, "test -e note.md && echo yes || echo no")).toBe("no\n");
        await c.close();
        // The template is bound into no sandbox: its host path does not exist inside a member.
        const templatePath = (template as WorkspaceTemplate).workspace;
        expect(await sh(a, `test -e '${templatePath}' && echo visible || echo hidden`)).toBe("hidden\n");
      } finally {
        await a.close();
        await b.close();
        await template.remove();
      }
      expect(runtime.heldTemplates).toHaveLength(0);
      expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "a process INIT left running is gone before the workspace is kept: the template does not change",
    async () => {
      const { template } = await runtime.prepareTemplate({}, async (sandbox) => {
        // The agent's shell outlives its commands (a non-interactive `exec` is killed whole at its end).
        const started = await sandbox.runTool("bash", {
          command:
            "mkdir -p /workspace/repo && (while true; do date +%s%N >> /workspace/repo/clock; sleep 0.02; done) >/dev/null 2>&1 &",
        });
        expect(started.exitCode).toBe(0);
        // The writer has written at least once before INIT ends.
        await sh(sandbox, "for i in $(seq 100); do [ -s repo/clock ] && exit 0; sleep 0.05; done; exit 1");
      });
      const clock = join((template as WorkspaceTemplate).workspace, "repo", "clock");
      const before = readFileSync(clock, "utf8");
      const member = await runtime.createFrom(template, {});
      await sh(member, "sleep 0.3");
      expect(readFileSync(clock, "utf8")).toBe(before);
      await member.close();
      await template.remove();
    },
    TIMEOUT_MS,
  );

  it(
    "a failing INIT keeps nothing: the error propagates as it is and no directory is left",
    async () => {
      const failure = new Error("setup command exited with 2");
      let seen: Sandbox | undefined;
      await expect(
        runtime.prepareTemplate({}, async (sandbox) => {
          seen = sandbox;
          await sh(sandbox, "mkdir -p repo && echo half > repo/half");
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(seen?.state).toBe("closed");
      expect(runtime.heldTemplates).toHaveLength(0);
      expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "an aborted preparation keeps nothing; a removed template starts no sandbox",
    async () => {
      const controller = new AbortController();
      await expect(
        runtime.prepareTemplate(
          {},
          async (sandbox) => {
            await sh(sandbox, "echo x > x");
            controller.abort(new Error("cancelled"));
          },
          controller.signal,
        ),
      ).rejects.toThrow("cancelled");
      expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);

      const { template } = await runtime.prepareTemplate({}, async () => undefined);
      await template.remove();
      await template.remove(); // idempotent
      const error = await runtime.createFrom(template, {}).catch((caught: unknown) => caught);
      expect(failureOf(error)?.kind).toBe("sandbox-error");
      expect(failureOf(error)).toMatchObject({ reason: "start_failed" });
      expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "a cold member is filled while it starts and reports the copy; a template failing meanwhile leaves nothing",
    async () => {
      const events: TSandboxEvent[] = [];
      const stop = runtime.onEvent((event) => events.push(event));
      try {
        const { template } = await runtime.prepareTemplate({}, prepareRepo);
        const member = await runtime.createFrom(template, { jobId: "cold", files: { "own.txt": "mine" } });
        expect((await sh(member, SNAPSHOT)).trim().split("\n")).toEqual(PREPARED);
        expect(await sh(member, "cat own.txt")).toBe("mine");
        const forked = events.find((event) => event.type === "forked" && event.sandboxId === member.id);
        expect(forked?.jobId).toBe("cold");
        expect(forked?.detail).toMatchObject({ templateId: template.id, copyMs: expect.any(Number) });
        await member.close();
        await template.remove();

        const failure = new Error("the group's INIT failed");
        let rejectTemplate: (error: Error) => void = () => undefined;
        const pending = new Promise<SandboxTemplate>((_, reject) => {
          rejectTemplate = reject;
        });
        const starting = runtime.createFrom(pending, { jobId: "cold-failed" });
        // Fails while the member's sandbox is starting (or just started).
        setTimeout(() => rejectTemplate(failure), 50);
        await expect(starting).rejects.toBe(failure);
        expect(runtime.openSandboxes).toHaveLength(0);
        expect(sandboxDirsIn(fixture.baseDir)).toEqual([]);
      } finally {
        stop();
      }
    },
    TIMEOUT_MS,
  );

  it(
    "a shutdown right after a warm-pool take starts no refill afterwards",
    async () => {
      const pooled = createTestRuntime({ defaultLimits: { memoryBytes: 2 * 1024 ** 3 }, warmPoolSize: 1 });
      try {
        await pooled.runtime.warmUp();
        const taken = await pooled.runtime.create({ jobId: "taken" });
        expect(taken.state).toBe("ready");
        await pooled.runtime.closeAll();
        // The refill `take` deferred would have run by now.
        for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        expect(pooled.runtime.openSandboxes).toHaveLength(0);
        expect(sandboxDirsIn(pooled.baseDir)).toEqual([]);
      } finally {
        await pooled.dispose();
      }
    },
    TIMEOUT_MS,
  );

  it(
    "closeAll removes the templates still held; a warm-pool sandbox takes the template's copy too",
    async () => {
      const pooled = createTestRuntime({ defaultLimits: { memoryBytes: 2 * 1024 ** 3 }, warmPoolSize: 1 });
      try {
        await pooled.runtime.warmUp();
        const { template } = await pooled.runtime.prepareTemplate({}, prepareRepo);
        await pooled.runtime.warmUp();
        const member = await pooled.runtime.createFrom(template, { jobId: "pooled" });
        expect((await sh(member, SNAPSHOT)).trim().split("\n")).toEqual(PREPARED);
        await sh(member, "echo mine >> repo/a.txt");
        expect(hostSnapshot(template)).toEqual(PREPARED);
        await pooled.runtime.closeAll();
        expect(pooled.runtime.heldTemplates).toHaveLength(0);
        expect(sandboxDirsIn(pooled.baseDir)).toEqual([]);
      } finally {
        await pooled.dispose();
      }
    },
    TIMEOUT_MS,
  );
});
