// An image with nothing but busybox (static: no bash, no glibc, no loader): the execution server
// runs on the host's node and the agent's shell is the host's bash, both through an execute-only
// copy of the host's loader; every command the agent runs is the image's own busybox. The
// python tool says python3 is missing, and the tools can read neither the shell nor the server.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageCache, type ManagedSandbox } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

const BUSYBOX = "/bin/busybox";

/** A root filesystem of /bin/busybox and its applets, packed as an OCI layout with umoci. */
function buildBusyboxImage(dir: string): { rootfs: string; reference: string } {
  if (!existsSync(BUSYBOX))
    throw new Error(`the busybox image test needs ${BUSYBOX}: run \`apt-get install -y busybox-static\``);
  const rootfs = join(dir, "rootfs");
  for (const sub of ["bin", "etc", "tmp"]) mkdirSync(join(rootfs, sub), { recursive: true, mode: 0o755 });
  copyFileSync(BUSYBOX, join(rootfs, "bin", "busybox"));
  chmodSync(join(rootfs, "bin", "busybox"), 0o755);
  const applets = execFileSync(BUSYBOX, ["--list"], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const applet of applets) if (applet !== "busybox") symlinkSync("busybox", join(rootfs, "bin", applet));
  symlinkSync("bin", join(rootfs, "sbin"));
  mkdirSync(join(rootfs, "usr"), { mode: 0o755 });
  symlinkSync("../bin", join(rootfs, "usr", "bin"));
  for (const args of [
    ["init", "--layout", "oci"],
    ["new", "--image", "oci:busybox"],
    ["insert", "--rootless", "--image", "oci:busybox", "rootfs", "/"],
  ])
    execFileSync("umoci", args, { cwd: dir });
  return { rootfs, reference: `${join(dir, "oci")}:busybox` };
}

describe("bubblewrap on a busybox image (a shell, but no bash and no glibc)", () => {
  const scratch = mkdtempSync(join(tmpdir(), "raas-image-busybox-"));
  chmodSync(scratch, 0o755); // A sandbox may run as another uid.
  const fixture = createTestRuntime({
    imageCache: new ImageCache({ dir: join(scratch, "cache") }),
    defaultLimits: { maxProcesses: 200 },
  });
  let image: { rootfs: string; reference: string };
  let sandbox: ManagedSandbox;
  const bash = (command: string) => sandbox.runTool("bash", { command });

  beforeAll(async () => {
    image = buildBusyboxImage(join(scratch, "image"));
    sandbox = await fixture.runtime.create({ image: image.reference });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    await fixture.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("starts, jailed, with the bash tool running the image's own busybox programs", async () => {
    expect(sandbox.isolation).toMatchObject({ toolJail: true });
    const result = await bash(
      "test -e /usr/bin/bash || echo no-bash-in-image; echo $((1+2)); echo hi > a.txt; cat a.txt; ls; for p in $(command -v ls) $(command -v cat) /bin/sh; do readlink $p; done",
    );
    expect(result.output).toBe("no-bash-in-image\n3\nhi\na.txt\nbusybox\nbusybox\nbusybox\n");
    expect(result).toMatchObject({ exitCode: 0, isError: false });
    // The session keeps its state between calls, and the process limit is in force.
    await bash("cd /tmp && X=kept");
    expect((await bash("pwd; echo $X; ulimit -u")).output).toBe("/tmp\nkept\n200\n");
    // A handler's command runs with the image's /bin/sh.
    const exec = await sandbox.exec(["sh", "-c", "echo $((2+3)); busybox | head -1 | cut -c1-7"]);
    expect(exec.stdout).toBe("5\nBusyBox\n");
  }, 60_000);

  it("edits a file with the editor tool", async () => {
    await sandbox.runTool("editor", { command: "create", path: "note.txt", file_text: "one\ntwo\n" });
    await sandbox.runTool("editor", {
      command: "str_replace",
      path: "/workspace/note.txt",
      old_str: "two",
      new_str: "2",
    });
    expect((await bash("cat /workspace/note.txt")).output).toBe("one\n2\n");
    const view = await sandbox.runTool("editor", { command: "view", path: "/workspace/note.txt" });
    expect(view.output).toContain("2");
  }, 60_000);

  it("says the python tool cannot run because the image has no python3", async () => {
    const python = await sandbox.runTool("python", { code: "1 + 1" });
    expect(python.isError).toBe(true);
    expect(python.output).toContain(
      "python3 is not installed in this sandbox's image (command not found), so the python tool cannot run here",
    );
  }, 60_000);

  it("cannot read the shell's memory or binary, nor see the execution server", async () => {
    const probe = [
      "for f in environ mem maps exe; do cat /proc/$$/$f >/dev/null 2>&1 && echo $f readable || echo $f denied; done",
      "for f in /opt/raas/bin/bash /opt/raas/bin/node; do cat $f >/dev/null 2>&1 && echo $f readable || echo $f denied; done",
      "test -e /run/raas/exec.sock && echo socket-visible || echo socket-hidden",
      "grep -l 'exec-serve[r]' /proc/[0-9]*/cmdline 2>/dev/null | wc -l",
    ].join("\n");
    const result = await bash(probe);
    expect(result.output).toBe(
      [
        "environ denied",
        "mem denied",
        "maps denied",
        "exe denied",
        "/opt/raas/bin/bash denied",
        "/opt/raas/bin/node denied",
        "socket-hidden",
        "0",
        "",
      ].join("\n"),
    );
    // A child of the shell cannot attach to it either: busybox has no strace, but /proc/<pid>/fd
    // needs the same ptrace access.
    expect((await bash("ls /proc/$$/fd >/dev/null 2>&1 && echo fd-readable || echo fd-denied")).output).toBe(
      "fd-denied\n",
    );
  }, 60_000);

  it("runs on the image as a plain rootfs directory too", async () => {
    const direct = await fixture.runtime.create({ image: image.rootfs });
    try {
      expect((await direct.runTool("bash", { command: "uname -n; echo $((7*6))" })).output).toBe(
        "sandbox\n42\n",
      );
    } finally {
      await direct.close();
    }
  }, 60_000);
});
